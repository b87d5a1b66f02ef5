"""Reads a cover rendered in grey (pdftoppm -gray: a binary PGM) and checks that its front's
title stands out: in the band where the title is set (the top eighth of the front, the
right half of the wrap), the darkest and lightest greys differ by at least 100 of 255, as
printed text needs on a black-and-white press. Exit 0 when it does."""
import sys


def read_pgm(path):
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
    assert fields[0] == b"P5", fields[0]
    width, height = int(fields[1]), int(fields[2])
    return width, height, data[at + 1:]


width, height, pixels = read_pgm(sys.argv[1])
band = [pixels[y * width + x] for y in range(height // 32, height // 7) for x in range(width // 2 + width // 16, width - width // 32)]
spread = max(band) - min(band)
print(f"title band greys {min(band)}..{max(band)}")
sys.exit(0 if spread >= 100 else 1)
