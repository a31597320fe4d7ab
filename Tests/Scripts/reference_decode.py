#!/usr/bin/env python3
"""Reference decodes for Osprey's codec tests.

Reads lines "MODE<TAB>INPUT<TAB>OUTPUT" on stdin and writes, for each, the decoded pixels
as raw bytes to OUTPUT and a line "OUTPUT<TAB>WIDTH<TAB>HEIGHT<TAB>CHANNELS" (or
"OUTPUT<TAB>ERROR<TAB>message") on stdout. Modes:
  png        pypng, RGBA 8-bit, raw sample values, no gamma (exact for PngSuite)
  pil        Pillow, EXIF orientation applied, RGB or RGBA
  pil-N      Pillow full decode, orientation applied, then a Lanczos resize to fit NxN
  vips       libvips (vips icc_transform --embedded --intent relative to srgb, as
             vipsthumbnail --export-profile srgb converts), RGB or RGBA; untagged files as stored
  pil-frames every frame of an animation as Pillow composes it, RGBA, one after another
             (the line gives the frame count as a fifth field)

The pil modes are colour-managed: an embedded ICC profile is converted to sRGB with Little
CMS (relative colorimetric, no black-point compensation), as libvips' --export-profile srgb.
"""
import sys

try:  # HEIF/HEIC through libheif, when pillow-heif is installed (make setup installs it)
    import pillow_heif
    pillow_heif.register_heif_opener()
except ImportError:
    pass

def pypng_rgba(path):
    """pypng's asDirect (palette and tRNS applied, raw samples), widened to RGBA 8-bit here:
    pypng's own asRGBA8 fails on this Python."""
    import png
    reader = png.Reader(filename=path)
    reader.preamble()
    reader.sbit = None  # raw samples: sBIT says which bits matter, it does not change them
    width, height, rows, info = reader.asDirect()
    planes, depth = info["planes"], info["bitdepth"]
    top = (1 << depth) - 1
    scale = [round(v * 255 / top) for v in range(top + 1)] if depth <= 8 else None
    data = bytearray()
    for row in rows:
        values = [scale[v] for v in row] if scale else [(v * 255 + 32767) // 65535 for v in row]
        for x in range(width):
            px = values[x * planes:(x + 1) * planes]
            if planes == 1:
                data.extend((px[0], px[0], px[0], 255))
            elif planes == 2:
                data.extend((px[0], px[0], px[0], px[1]))
            elif planes == 3:
                data.extend((px[0], px[1], px[2], 255))
            else:
                data.extend(px)
    return width, height, 4, bytes(data)

def to_srgb(im, icc, has_alpha):
    """im converted from its embedded profile to sRGB, or None when Little CMS refuses it."""
    import io
    from PIL import ImageCms
    try:
        source = ImageCms.ImageCmsProfile(io.BytesIO(icc))
        if im.mode == "P":
            im = im.convert("RGBA" if has_alpha else "RGB")
        if im.mode == "LA":
            im = im.convert("RGBA")
        if im.mode == "L":
            return ImageCms.profileToProfile(im, source, ImageCms.createProfile("sRGB"), renderingIntent=1,
                                             outputMode="RGB")
        mode = "RGBA" if im.mode == "RGBA" else "RGB"
        return ImageCms.profileToProfile(im, source, ImageCms.createProfile("sRGB"), renderingIntent=1,
                                         outputMode=mode)
    except Exception:
        return None

def pillow(path, fit=None):
    from PIL import Image, ImageOps
    with Image.open(path) as im:
        if im.format != "HEIF":  # pillow-heif opens the primary image, which need not be image 0
            im.seek(0)
        icc = im.info.get("icc_profile")
        try:
            im = ImageOps.exif_transpose(im)
        except ValueError:  # Pillow 13 cannot parse some XMP packets; orientation 1 then
            pass
        has_alpha = im.mode in ("RGBA", "LA", "PA") or (im.mode == "P" and "transparency" in im.info)
        converted = to_srgb(im, icc, has_alpha) if icc else None
        im = (converted or im).convert("RGBA" if has_alpha else "RGB")
        if fit:
            scale = min(1.0, fit / im.width, fit / im.height)
            size = (max(1, round(im.width * scale)), max(1, round(im.height * scale)))
            im = im.resize(size, Image.LANCZOS)
        return im.width, im.height, len(im.mode), im.tobytes()

def vips(path):
    import os, subprocess, tempfile
    from PIL import Image
    with tempfile.TemporaryDirectory() as folder:
        out = os.path.join(folder, "out.png")
        converted = subprocess.run(["vips", "icc_transform", path, out, "srgb", "--embedded", "--intent", "relative"],
                                   capture_output=True)
        if converted.returncode != 0:  # no embedded profile: the pixels as stored
            subprocess.run(["vips", "copy", path, out], check=True, capture_output=True)
        with Image.open(out) as im:
            im = im.convert("RGBA" if im.mode in ("RGBA", "LA") else "RGB")
            return im.width, im.height, len(im.mode), im.tobytes()

def pillow_frames(path):
    from PIL import Image, ImageSequence
    frames = []
    with Image.open(path) as im:
        icc = im.info.get("icc_profile")
        for frame in ImageSequence.Iterator(im):
            rgba = frame.convert("RGBA")
            converted = to_srgb(rgba, icc, True) if icc else None
            frames.append((converted or rgba).tobytes())
        return im.width, im.height, 4, b"".join(frames), len(frames)

for line in sys.stdin:
    mode, source, target = line.rstrip("\n").split("\t")
    try:
        if mode == "png":
            w, h, c, data = pypng_rgba(source)
        elif mode == "pil":
            w, h, c, data = pillow(source)
        elif mode == "vips":
            w, h, c, data = vips(source)
        elif mode == "pil-frames":
            w, h, c, data, count = pillow_frames(source)
            with open(target, "wb") as f:
                f.write(data)
            print(f"{target}\t{w}\t{h}\t{c}\t{count}", flush=True)
            continue
        elif mode.startswith("pil-"):
            w, h, c, data = pillow(source, int(mode[4:]))
        else:
            raise ValueError("unknown mode " + mode)
        with open(target, "wb") as f:
            f.write(data)
        print(f"{target}\t{w}\t{h}\t{c}", flush=True)
    except Exception as error:  # the test reports it
        print(f"{target}\tERROR\t{type(error).__name__}: {error}", flush=True)
