"""Checks pages rendered by pdftoppm (binary PPM or PGM files):
- `pixels.py greyscale PAGE.ppm...`: no colour: every pixel's red, green and blue equal
  (within 2 of 255, for the rasteriser's rounding); prints the first coloured pixel.
- `pixels.py contrast COVER.pgm`: a cover's front title stands out: in the band where the
  title is set (the top of the front, the right half of the wrap), the darkest and lightest
  greys differ by at least 100 of 255, as printed text needs on a black-and-white press.
Exits 0 when the check holds."""
import sys


def read_pnm(path):
    data = open(path, "rb").read()
    fields, at = [], 0
    while len(fields) < 4:
        while data[at:at + 1].isspace():
            at += 1
        if data[at:at + 1] == b"#":
            at = data.index(b"\n", at)
            continue
        end = at
        while not data[end:end + 1].isspace():
            end += 1
        fields.append(data[at:end])
        at = end
    return fields[0], int(fields[1]), int(fields[2]), data[at + 1:]


def greyscale(paths):
    for path in paths:
        kind, width, _, pixels = read_pnm(path)
        assert kind == b"P6", kind
        r, g, b = pixels[0::3], pixels[1::3], pixels[2::3]
        if r == g == b:
            continue
        for i, (x, y, z) in enumerate(zip(r, g, b)):
            if max(x, y, z) - min(x, y, z) > 2:
                print(f"{path}: pixel ({i % width}, {i // width}) is ({x}, {y}, {z})")
                return False
    print(f"{len(paths)} pages without colour")
    return True


def contrast(path):
    kind, width, height, pixels = read_pnm(path)
    assert kind == b"P5", kind
    band = [
        pixels[y * width + x]
        for y in range(height // 32, height // 7)
        for x in range(width // 2 + width // 16, width - width // 32)
    ]
    print(f"title band greys {min(band)}..{max(band)}")
    return max(band) - min(band) >= 100


check = {"greyscale": lambda args: greyscale(args), "contrast": lambda args: contrast(args[0])}[sys.argv[1]]
sys.exit(0 if check(sys.argv[2:]) else 1)
