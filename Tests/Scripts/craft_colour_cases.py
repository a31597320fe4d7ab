#!/usr/bin/env python3
"""Crafts the colour and orientation edge cases ColourEdgeCaseTests decodes, into FOLDER.

usage: craft_colour_cases.py CORPUS FOLDER
  cmyk-untagged.jpg       thumbor's CMYK JPEG without its ICC profile
  cmyk-bad-offsets.jpg    its profile with the A2B tags pointing past the profile's end
  cmyk-missing-chunk.jpg  its profile with the last of its nine APP2 chunks gone
  cmyk-corrupt-lut.jpg    its profile with the A2B LUTs overwritten
  rgb-lut-adobe.jpg       a photo stored as RGB (no YCbCr, Adobe transform 0) with Little CMS's
                          v4 LUT (mAB) stress-test profile, the layout of jpegli's XYB JPEGs
  rgb-lut-ids.jpg         the same without the Adobe marker: RGB from its component ids R, G, B
  rgb-lut-reference.png   what Little CMS (through Pillow's ImageCms) makes of it in sRGB
  rgb-lut-source.png      the photo's own pixels
  heic-exif6-irot.heic    a 64x32 image (red square top left) written by pillow-heif with EXIF
                          orientation 6, which it turns into an irot box and keeps in the EXIF
  heic-exif3-irot.heic    the same with the EXIF orientation changed to 3
"""
import io
import os
import struct
import sys

from PIL import Image, ImageCms
import pillow_heif

corpus, folder = sys.argv[1], sys.argv[2]


def segments(data):
    pos, out = 2, []
    while pos < len(data):
        marker = data[pos + 1]
        if marker == 0xDA:
            out.append((marker, data[pos:]))
            break
        length = struct.unpack(">H", data[pos + 2:pos + 4])[0]
        out.append((marker, data[pos:pos + 2 + length]))
        pos += 2 + length
    return out


def is_icc(marker, segment):
    return marker == 0xE2 and segment[4:16] == b"ICC_PROFILE\0"


def with_profile(data, profile, drop_last_chunk=False):
    chunks = [profile[i:i + 65519] for i in range(0, len(profile), 65519)]
    written = chunks[:-1] if drop_last_chunk else chunks
    out, placed = bytearray(data[:2]), False
    for marker, segment in segments(data):
        if is_icc(marker, segment):
            if not placed:
                for index, chunk in enumerate(written):
                    body = b"ICC_PROFILE\0" + bytes([index + 1, len(chunks)]) + chunk
                    out += b"\xff\xe2" + struct.pack(">H", len(body) + 2) + body
                placed = True
        else:
            out += segment
    return bytes(out)


def write(name, data):
    open(os.path.join(folder, name), "wb").write(data)


cmyk = open(os.path.join(corpus, "icc/thumbor_cmyk-icc.jpg"), "rb").read()
profile = bytearray(b"".join(s[18:] for m, s in segments(cmyk) if is_icc(m, s)))
write("cmyk-untagged.jpg", cmyk[:2] + b"".join(s for m, s in segments(cmyk) if not is_icc(m, s)))
tags = {bytes(profile[132 + 12 * i:136 + 12 * i]): 132 + 12 * i for i in range(struct.unpack(">I", profile[128:132])[0])}
bad = bytearray(profile)
for tag in (b"A2B0", b"A2B1", b"A2B2"):
    struct.pack_into(">I", bad, tags[tag] + 4, 10_000_000)
write("cmyk-bad-offsets.jpg", with_profile(cmyk, bytes(bad)))
write("cmyk-missing-chunk.jpg", with_profile(cmyk, bytes(profile), drop_last_chunk=True))
corrupt = bytearray(profile)
for tag in (b"A2B0", b"A2B1"):
    offset, size = struct.unpack(">II", corrupt[tags[tag] + 4:tags[tag] + 12])
    corrupt[offset + 8:offset + size] = b"\xff" * (size - 8)
write("cmyk-corrupt-lut.jpg", with_profile(cmyk, bytes(corrupt)))

lut = Image.open(os.path.join(corpus, "icc/nico_stress.jpeg")).info["icc_profile"]
photo = Image.open(os.path.join(corpus, "photos/jolla.jpg")).convert("RGB").resize((320, 240))
photo.save(os.path.join(folder, "rgb-lut-source.png"))
buffer = io.BytesIO()
photo.save(buffer, "JPEG", quality=95, keep_rgb=True, icc_profile=lut, subsampling=0)
adobe = buffer.getvalue()
write("rgb-lut-adobe.jpg", adobe)
write("rgb-lut-ids.jpg", adobe[:2] + b"".join(s for m, s in segments(adobe) if m != 0xEE))
stored = Image.open(io.BytesIO(adobe))
ImageCms.profileToProfile(stored, ImageCms.ImageCmsProfile(io.BytesIO(lut)), ImageCms.createProfile("sRGB"),
                          renderingIntent=ImageCms.Intent.RELATIVE_COLORIMETRIC).save(os.path.join(folder, "rgb-lut-reference.png"))

pillow_heif.register_heif_opener()
square = Image.new("RGB", (64, 32), (0, 0, 255))
square.paste((255, 0, 0), (0, 0, 16, 16))
exif = Image.Exif()
exif[0x0112] = 6
path = os.path.join(folder, "heic-exif6-irot.heic")
square.save(path, exif=exif.tobytes(), quality=95)
heic = open(path, "rb").read()
assert b"irot" in heic
six = b"\x01\x12\x00\x03\x00\x00\x00\x01\x00\x06"
assert heic.count(six) == 1
write("heic-exif3-irot.heic", heic.replace(six, six[:-1] + b"\x03"))
