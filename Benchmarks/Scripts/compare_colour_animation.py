#!/usr/bin/env python3
"""Whole-process comparison of the colour and animation paths: osprey convert vs vipsthumbnail.

- A 24-megapixel Display P3 JPEG (the corpus photo converted to P3 with the profile of
  icc/nuke_image-p3.jpg embedded) to a 640 px JPEG: Osprey converting to sRGB, the same
  pixels untagged in Osprey, and `vipsthumbnail --export-profile srgb`.
- An animated GIF of 88 frames (the corpus' rotating earth, twice) to a 200 px animated
  WebP: `osprey convert` against `vipsthumbnail 'anim.gif[n=-1]'`.

Interleaved rounds (every command once per round, rotating order); median wall time and
peak resident memory (GNU time). Prints a Markdown table.

usage: compare_colour_animation.py OSPREY_BINARY WORK_DIR [ROUNDS]
"""
import io, os, sys

from measure import compare

osprey, work = sys.argv[1], sys.argv[2]
rounds = int(sys.argv[3]) if len(sys.argv) > 3 else 7
corpus = os.environ.get("OSPREY_CORPUS") or os.path.join(os.path.dirname(__file__), "../../../shared/corpus")
os.makedirs(work, exist_ok=True)

def make_inputs():
    from PIL import Image, ImageCms, ImageSequence
    p3, untagged, gif = (os.path.join(work, n) for n in ("p3.jpg", "untagged.jpg", "anim.gif"))
    if not all(os.path.exists(p) for p in (p3, untagged, gif)):
        with Image.open(os.path.join(corpus, "icc/nuke_image-p3.jpg")) as tagged:
            p3_profile = tagged.info["icc_profile"]
        with Image.open(os.path.join(corpus, "photos/craft-beer.jpg")) as im:
            rgb = im.convert("RGB")
            converted = ImageCms.profileToProfile(rgb, ImageCms.createProfile("sRGB"),
                                                  ImageCms.ImageCmsProfile(io.BytesIO(p3_profile)), renderingIntent=1)
            converted.save(p3, quality=90, icc_profile=p3_profile)
            converted.save(untagged, quality=90)
        with Image.open(os.path.join(corpus, "gif/thumbor_Rotating_earth_large.gif")) as earth:
            frames = [f.convert("RGBA").copy() for f in ImageSequence.Iterator(earth)] * 2
            frames[0].save(gif, save_all=True, append_images=frames[1:], duration=90, loop=0, disposal=1)
    return p3, untagged, gif

p3, untagged, gif = make_inputs()
jpeg_out, webp_out = os.path.join(work, "out.jpg"), os.path.join(work, "out.webp")
cases = {
    "24 MP Display P3 JPEG → 640 px JPEG": {
        "osprey (P3, converted)": [osprey, "convert", p3, "--size", "640x640", "--quality", "0.8", "-o", jpeg_out],
        "osprey (same pixels, untagged)": [osprey, "convert", untagged, "--size", "640x640", "--quality", "0.8", "-o", jpeg_out],
        "vipsthumbnail --export-profile srgb": ["vipsthumbnail", p3, "-s", "640", "--export-profile", "srgb", "-o", jpeg_out + "[Q=80]"],
    },
    "88-frame GIF 400×400 → 200 px animated WebP": {
        "osprey": [osprey, "convert", gif, "--size", "200x200", "--quality", "0.8", "-o", webp_out],
        "vipsthumbnail anim.gif[n=-1]": ["vipsthumbnail", gif + "[n=-1]", "-s", "200", "-o", webp_out + "[Q=80]"],
    },
}

compare(cases, rounds)
