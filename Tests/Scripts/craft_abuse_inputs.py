#!/usr/bin/env python3
"""Makes the inputs of the server's abuse tests (ServerAbuseTests) in OUT from a photo:

tall_frame.gif      a 1x1 screen, a 0x0 frame, then a 65535x1000 frame (issue 39's GIF)
tall_frames.gif     the same with twenty 65535x1000 frames
one_pixel.png       a 1x1 PNG;  ten_frames.gif  a 1x1 GIF of ten frames
photo_1800k.png     the photo at 1600x1125 (1.8 MP), as a PNG
big.png, big.jpg    the photo at 4000x3000;  small.png  the photo at 400x300
frames.gif          twelve 1200x900 frames of the photo, shifted
mark.png            a 24x24 watermark with alpha
"""
import io
import struct
import sys

from PIL import Image, ImageDraw


def gif_blocks(data):
    """The global colour table and the first image block (descriptor to its data's end)."""
    flags = data[10]
    pos = 13
    table = b""
    if flags & 0x80:
        size = 3 * (2 << (flags & 7))
        table = data[13:13 + size]
        pos += size
    while data[pos] == 0x21:  # extensions
        pos += 2
        while data[pos]:
            pos += data[pos] + 1
        pos += 1
    assert data[pos] == 0x2C
    start = pos
    desc_flags = data[pos + 9]
    pos += 10
    if desc_flags & 0x80:
        pos += 3 * (2 << (desc_flags & 7))
    pos += 1  # LZW minimum code size
    while data[pos]:
        pos += data[pos] + 1
    pos += 1
    return flags, table, data[start:pos]


def tall_gif_parts():
    image = Image.new("P", (65535, 1000), 1)
    image.putpalette([0, 0, 0, 255, 0, 0] + [0] * (254 * 3))
    out = io.BytesIO()
    image.save(out, "GIF")
    flags, table, block = gif_blocks(out.getvalue())
    head = b"GIF89a" + struct.pack("<HHBBB", 1, 1, flags, 0, 0) + table
    empty = b"\x2C" + struct.pack("<HHHHB", 0, 0, 0, 0, 0) + b"\x02\x01\x2C\x00"
    return head, empty, block


def main(photo_path, out):
    photo = Image.open(photo_path).convert("RGB")
    head, empty, block = tall_gif_parts()
    with open(f"{out}/tall_frame.gif", "wb") as f:
        f.write(head + empty + block + b"\x3B")
    with open(f"{out}/tall_frames.gif", "wb") as f:
        f.write(head + empty + block * 20 + b"\x3B")
    Image.new("RGB", (1, 1), (200, 30, 40)).save(f"{out}/one_pixel.png")
    dots = [Image.new("RGB", (1, 1), (i * 25, 0, 0)) for i in range(10)]
    dots[0].save(f"{out}/ten_frames.gif", save_all=True, append_images=dots[1:], duration=100, loop=0)
    photo.resize((1600, 1125)).save(f"{out}/photo_1800k.png")
    big = photo.resize((4000, 3000))
    big.save(f"{out}/big.png", compress_level=1)
    big.save(f"{out}/big.jpg", quality=90)
    photo.resize((400, 300)).save(f"{out}/small.png")
    frame = photo.resize((1400, 1050))
    palette = frame.quantize(colors=256, method=Image.Quantize.FASTOCTREE)
    frames = [frame.crop((i * 16, i * 12, i * 16 + 1200, i * 12 + 900)).quantize(palette=palette, dither=Image.Dither.NONE)
              for i in range(12)]
    frames[0].save(f"{out}/frames.gif", save_all=True, append_images=frames[1:], duration=80, loop=0)
    mark = Image.new("RGBA", (24, 24), (0, 0, 0, 0))
    ImageDraw.Draw(mark).ellipse((2, 2, 21, 21), fill=(255, 255, 255, 180))
    mark.save(f"{out}/mark.png")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
