"""Checks that a PDF's pages, rendered by pdftoppm into PPM files, hold no colour: every
pixel's red, green and blue are equal (within 2 of 255, for the rasteriser's rounding).
Usage: greyscale.py PAGE.ppm... Prints the first coloured pixel and exits 1 if any."""
import sys


def read_ppm(path):
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
    assert fields[0] == b"P6", fields[0]
    return int(fields[1]), data[at + 1:]


for path in sys.argv[1:]:
    width, pixels = read_ppm(path)
    r, g, b = pixels[0::3], pixels[1::3], pixels[2::3]
    if r == g == b:
        continue
    for i, (x, y, z) in enumerate(zip(r, g, b)):
        if max(x, y, z) - min(x, y, z) > 2:
            print(f"{path}: pixel ({i % width}, {i // width}) is ({x}, {y}, {z})")
            sys.exit(1)
print(f"{len(sys.argv) - 1} pages without colour")
