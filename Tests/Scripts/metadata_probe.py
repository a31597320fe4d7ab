"""Metadata for the tests, made and read by Pillow, independently of Osprey's own reader.

craft SOURCE OUT_DIR   writes with-metadata.jpg (EXIF, XMP, IPTC), .png (eXIf, XMP iTXt) and
                       .webp (EXIF, XMP) from SOURCE's pixels, each with the same blocks:
                       EXIF Artist, Copyright, Make, Model, Orientation 6 and a GPS position;
                       XMP dc:creator, dc:rights, xmp:CreatorTool, photoshop:City; IPTC
                       By-line (2:80), Copyright Notice (2:116), Keywords (2:25), City (2:90).
read FILE...           prints one JSON object per line: the file's size, its EXIF IFD0 tags
                       by name (GPS as `GPSLatitude` when present), its XMP text and its
                       IPTC datasets as "record:dataset", every value as text.
"""
import io
import json
import struct
import sys

from PIL import ExifTags, Image, IptcImagePlugin
from PIL.PngImagePlugin import PngInfo

XMP = """<?xpacket begin="\ufeff" id="W5M0MpCehiHzreSzNTczkc9d"?>
<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
<rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:xmp="http://ns.adobe.com/xap/1.0/"
 xmlns:photoshop="http://ns.adobe.com/photoshop/1.0/" xmlns:xmpRights="http://ns.adobe.com/xap/1.0/rights/"
 xmp:CreatorTool="Osprey Camera 1.0" photoshop:City="Helsinki" xmpRights:Marked="True">
<dc:creator><rdf:Seq><rdf:li>Ada Lovelace</rdf:li></rdf:Seq></dc:creator>
<dc:rights><rdf:Alt><rdf:li xml:lang="x-default">(c) Ada Lovelace</rdf:li></rdf:Alt></dc:rights>
<dc:subject><rdf:Bag><rdf:li>engine</rdf:li></rdf:Bag></dc:subject>
</rdf:Description></rdf:RDF></x:xmpmeta>
<?xpacket end="w"?>""".encode()


def iptc_segment():
    datasets = b""
    for (record, dataset), value in [((2, 80), b"Ada Lovelace"), ((2, 116), b"(c) Ada Lovelace"),
                                     ((2, 25), b"engine"), ((2, 90), b"Helsinki")]:
        datasets += bytes([0x1C, record, dataset]) + struct.pack(">H", len(value)) + value
    resource = b"8BIM" + b"\x04\x04" + b"\x00\x00" + struct.pack(">I", len(datasets)) + datasets
    if len(datasets) % 2:
        resource += b"\x00"
    payload = b"Photoshop 3.0\x00" + resource
    return b"\xff\xed" + struct.pack(">H", len(payload) + 2) + payload


def exif():
    data = Image.Exif()
    data[0x013B] = "Ada Lovelace"
    data[0x8298] = "(c) Ada Lovelace"
    data[0x010F] = "Osprey"
    data[0x0110] = "Camera One"
    data[0x0112] = 6
    gps = data.get_ifd(0x8825)
    gps[1] = "N"
    gps[2] = (60.0, 10.0, 0.0)
    return data.tobytes()


def craft(source, folder):
    image = Image.open(source).convert("RGB")
    image.thumbnail((320, 320))
    out = io.BytesIO()
    image.save(out, "JPEG", quality=90, exif=exif(), xmp=XMP)
    jpeg = out.getvalue()
    # IPTC after the application segments Pillow wrote, before the quantisation tables.
    at = 2
    while jpeg[at] == 0xFF and 0xE0 <= jpeg[at + 1] <= 0xEF:
        at += 2 + struct.unpack(">H", jpeg[at + 2:at + 4])[0]
    with open(f"{folder}/with-metadata.jpg", "wb") as f:
        f.write(jpeg[:at] + iptc_segment() + jpeg[at:])
    info = PngInfo()
    info.add_itxt("XML:com.adobe.xmp", XMP.decode())
    image.save(f"{folder}/with-metadata.png", "PNG", exif=exif(), pnginfo=info)
    image.save(f"{folder}/with-metadata.webp", "WEBP", quality=90, exif=exif(), xmp=XMP)


def read(path):
    image = Image.open(path)
    tags = image.getexif()
    exif_tags = {ExifTags.TAGS.get(tag, str(tag)): str(value) for tag, value in tags.items() if tag not in (0x8825, 0x8769)}
    gps = tags.get_ifd(0x8825)
    if gps:
        exif_tags["GPSLatitude"] = str(gps.get(2))
    xmp = image.info.get("xmp") or image.info.get("XML:com.adobe.xmp")
    if isinstance(xmp, bytes):
        xmp = xmp.decode("utf-8", "replace")
    iptc = {}
    if image.format == "JPEG":
        for (record, dataset), value in (IptcImagePlugin.getiptcinfo(image) or {}).items():
            iptc[f"{record}:{dataset}"] = (value[0] if isinstance(value, list) else value).decode("utf-8", "replace")
    return {"file": path, "format": image.format, "size": list(image.size), "exif": exif_tags, "xmp": xmp, "iptc": iptc}


if __name__ == "__main__":
    if sys.argv[1] == "craft":
        craft(sys.argv[2], sys.argv[3])
    else:
        for path in sys.argv[2:]:
            print(json.dumps(read(path)))
