#!/usr/bin/env python3
"""The HDR-to-SDR operator of Docs/CODEC.md, written again in numpy from the standards, as the
reference Osprey's tone mapping is tested against (Debian 12's libavif 0.11 and libvips 8.14
have none of their own).

usage: hdr_reference.py INPUT TRANSFER PRIMARIES OUTPUT
  INPUT      a 16-bit RGB PNG (read by pypng) or a HEIC (pillow-heif, HDR samples kept)
  TRANSFER   16 (PQ) or 18 (HLG); PRIMARIES an H.273 code (1, 9, 12)
Writes 8-bit RGB to OUTPUT and prints "WIDTH HEIGHT".
"""
import sys
import numpy as np

PRIMARIES = {
    1: [(0.640, 0.330), (0.300, 0.600), (0.150, 0.060)],
    9: [(0.708, 0.292), (0.170, 0.797), (0.131, 0.046)],
    12: [(0.680, 0.320), (0.265, 0.690), (0.150, 0.060)],
}
WHITE = 203.0  # ITU-R BT.2408 reference white
M1, M2 = 2610 / 16384, 2523 / 4096 * 128
C1, C2, C3 = 3424 / 4096, 2413 / 4096 * 32, 2392 / 4096 * 32


def pq_eotf(e):  # SMPTE ST 2084: signal to nits
    p = np.power(np.clip(e, 0, None), 1 / M2)
    return 10000 * np.power(np.clip(p - C1, 0, None) / (C2 - C3 * p), 1 / M1)


def pq_inverse(nits):
    y = np.power(np.clip(nits, 0, None) / 10000, M1)
    return np.power((C1 + C2 * y) / (1 + C3 * y), M2)


def hlg_inverse_oetf(e):  # BT.2100: signal to scene light
    a, b, c = 0.17883277, 0.28466892, 0.55991073
    return np.where(e <= 0.5, e * e / 3, (np.exp((e - c) / a) + b) / 12)


def rgb_to_xyz(primaries):
    p = np.array([[x / y, 1, (1 - x - y) / y] for x, y in primaries]).T
    wx, wy = 0.3127, 0.3290
    s = np.linalg.solve(p, np.array([wx / wy, 1, (1 - wx - wy) / wy]))
    return p * s


def eetf(nits, peak):  # ITU-R BT.2390, in PQ space, from peak down to WHITE
    source, target = pq_inverse(peak), pq_inverse(WHITE)
    if source <= target:
        return nits
    e1 = np.minimum(pq_inverse(nits) / source, 1)
    max_lum = target / source
    knee = 1.5 * max_lum - 0.5
    t = (e1 - knee) / (1 - knee)
    spline = (2 * t**3 - 3 * t**2 + 1) * knee + (t**3 - 2 * t**2 + t) * (1 - knee) + (-2 * t**3 + 3 * t**2) * max_lum
    e2 = np.where(e1 > knee, spline, e1)
    return np.where(e1 > knee, pq_eotf(np.minimum(e2, 1) * source), nits)


def read(path):
    if path.lower().endswith((".heic", ".heif")):
        import pillow_heif
        heif = pillow_heif.open_heif(path, convert_hdr_to_8bit=False)
        bits = heif.info.get("bit_depth", 10)
        return np.asarray(heif).astype(np.float64) / 64 / (2**bits - 1) if bits == 10 else np.asarray(heif) / 65535.0
    import png
    width, height, rows, info = png.Reader(filename=path).asDirect()
    assert info["bitdepth"] == 16 and info["planes"] == 3, info
    return np.array([list(r) for r in rows], dtype=np.float64).reshape(height, width, 3) / 65535.0


def main():
    source, transfer, primaries, output = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
    signal = read(source)
    if transfer == 16:
        light = pq_eotf(signal)
        peak = max(pq_eotf(signal.max()), WHITE)
    else:
        scene = hlg_inverse_oetf(signal)
        luminance = np.clip(scene @ np.array([0.2627, 0.6780, 0.0593]), 0, 1)
        light = 1000 * np.power(luminance, 0.2)[..., None] * scene
        peak = max(1000 * hlg_inverse_oetf(signal.max()), WHITE)
    matrix = np.linalg.inv(rgb_to_xyz(PRIMARIES[1])) @ rgb_to_xyz(PRIMARIES[primaries])
    rgb = light @ matrix.T
    brightest = np.clip(rgb.max(axis=2), 0, None)
    scale = np.where(brightest > 0, eetf(brightest, peak) / np.where(brightest > 0, brightest, 1) / WHITE, 1 / WHITE)
    linear = np.clip(rgb * scale[..., None], 0, 1)
    encoded = np.where(linear <= 0.0031308, 12.92 * linear, 1.055 * np.power(linear, 1 / 2.4) - 0.055)
    pixels = np.round(encoded * 255).astype(np.uint8)
    open(output, "wb").write(pixels.tobytes())
    print(pixels.shape[1], pixels.shape[0])


if __name__ == "__main__":
    main()
