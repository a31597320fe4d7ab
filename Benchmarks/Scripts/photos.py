"""Distinct 12-megapixel photographs-alike for the benchmarks: smooth colour fields, shapes and
grain, one seed per photo, made once with Pillow and kept in the folder given."""
import os


def make_photos(root, count, width=4000, height=3000, extension="jpg"):
    """Paths of `count` photos `photo-NNN.<extension>` in `root` (JPEG at quality 90, PNG or
    WebP at quality 90), making those that are missing."""
    from PIL import Image, ImageDraw, ImageFilter
    import random
    os.makedirs(root, exist_ok=True)
    paths = []
    for i in range(count):
        path = os.path.join(root, f"photo-{i:03d}.{extension}")
        paths.append(path)
        if os.path.exists(path):
            continue
        rng = random.Random(i)
        small = Image.new("RGB", (width // 8, height // 8))
        draw = ImageDraw.Draw(small)
        for _ in range(40):
            x, y = rng.randrange(width // 8), rng.randrange(height // 8)
            r = rng.randrange(10, 160)
            draw.ellipse((x - r, y - r, x + r, y + r), fill=(rng.randrange(256), rng.randrange(256), rng.randrange(256)))
        big = small.filter(ImageFilter.GaussianBlur(6)).resize((width, height), Image.BICUBIC)
        grain = Image.effect_noise((width, height), 40).convert("RGB")
        photo = Image.blend(big, grain, 0.3)
        if extension == "png":
            photo.save(path, compress_level=6)
        else:
            photo.save(path, quality=90)
    return paths
