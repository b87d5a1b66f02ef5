#!/usr/bin/env python3
"""Makes the benchmark grids in this folder (seeded, so it remakes the same files).

American rules: rotational symmetry, every white square in an across and a down entry,
entries of at least 3 letters, white squares connected. Blocks are placed one
symmetric pair at a time, preferring squares in long runs (as constructors break up
long entries), until the grid has its blocks and no more than its entries. Theme
entries are locked letters; the script keeps them whole. examples/fill_grids.rs checks
every grid again before filling it.
"""
import random
import sys
from pathlib import Path


def runs(white, h, w):
    """(length, cells) of every maximal run of white squares, across then down."""
    out = []
    for r in range(h):
        c = 0
        while c < w:
            if white[r][c]:
                s = c
                while c < w and white[r][c]:
                    c += 1
                out.append([(r, x) for x in range(s, c)])
            c += 1
    for c in range(w):
        r = 0
        while r < h:
            if white[r][c]:
                s = r
                while r < h and white[r][c]:
                    r += 1
                out.append([(y, c) for y in range(s, r)])
            r += 1
    return out


def legal(white, h, w):
    if any(len(run) < 3 for run in runs(white, h, w)):
        return False
    cells = [(r, c) for r in range(h) for c in range(w) if white[r][c]]
    seen = {cells[0]}
    stack = [cells[0]]
    while stack:
        r, c = stack.pop()
        for rr, cc in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
            if 0 <= rr < h and 0 <= cc < w and white[rr][cc] and (rr, cc) not in seen:
                seen.add((rr, cc))
                stack.append((rr, cc))
    return len(seen) == len(cells)


def stacks(rows):
    """Stacks of long entries: groups of across (and, separately, down) entries of 7 or
    more letters on consecutive lines sharing at least 7 columns (rows), as (size, direction)."""
    out = []
    for direction, lines in (("across", rows), ("down", ["".join(col) for col in zip(*rows)])):
        long = [[(s, s + len(run)) for s, run in spans(line) if len(run) >= 7] for line in lines]
        i = 0
        while i < len(long):
            for a, b in long[i]:
                size, lo, hi, j = 1, a, b, i + 1
                while j < len(long):
                    shared = [(max(lo, c), min(hi, d)) for c, d in long[j] if min(hi, d) - max(lo, c) >= 7]
                    if not shared:
                        break
                    lo, hi = shared[0]
                    size, j = size + 1, j + 1
                if size >= 2 and not any(
                    min(b, d) - max(a, c) >= 7 for c, d in (long[i - 1] if i > 0 else [])
                ):
                    out.append((size, direction))
            i += 1
    return out


def spans(line):
    """(start, run) of each run of white squares in a line."""
    out, start = [], None
    for i, ch in enumerate(line + "#"):
        if ch != "#" and start is None:
            start = i
        elif ch == "#" and start is not None:
            out.append((start, line[start:i]))
            start = None
    return out


def make(h, w, blocks, max_words, max_len, seed, themes=(), min_words=0, min_stacks=0):
    """themes: (row, col, word) across entries, placed with their rotational image.
    min_words, min_stacks: themeless grids, tried seed after seed until the grid has at
    least that many entries and stacks of long entries (see stacks())."""
    rng = random.Random(seed)
    while True:
        white = [[True] * w for _ in range(h)]
        letter = {}
        fixed_black = set()
        for r, c, word in themes:
            for i, ch in enumerate(word):
                letter[(r, c + i)] = ch
                letter[(h - 1 - r, w - 1 - (c + i))] = letter.get((h - 1 - r, w - 1 - (c + i)), "?")
            if c > 0:
                fixed_black |= {(r, c - 1), (h - 1 - r, w - c)}
            if c + len(word) < w:
                fixed_black |= {(r, c + len(word)), (h - 1 - r, w - 1 - c - len(word))}
        for r, c in fixed_black:
            white[r][c] = False
        count = sum(not x for row in white for x in row)
        tries = 0
        while count < blocks and tries < 1500:
            tries += 1
            long = {}
            for run in runs(white, h, w):
                for cell in run:
                    long[cell] = long.get(cell, 0) + max(0, len(run) - 4) ** 2
            cells = [k for k in long if k not in letter]
            weights = [long[k] + 1 for k in cells]
            r, c = rng.choices(cells, weights)[0]
            r2, c2 = h - 1 - r, w - 1 - c
            if (r2, c2) in letter:
                continue
            white[r][c] = white[r2][c2] = False
            if legal(white, h, w):
                count += 1 if (r, c) == (r2, c2) else 2
            else:
                white[r][c] = white[r2][c2] = True
        all_runs = runs(white, h, w)
        if count == blocks and min_words <= len(all_runs) <= max_words and all(
            len(run) <= max_len or all(cell in letter for cell in run) for run in all_runs
        ):
            rows = []
            for r in range(h):
                rows.append("".join(
                    "#" if not white[r][c] else (letter[(r, c)] if letter.get((r, c), "?") != "?" else ".")
                    for c in range(w)))
            if len(stacks(rows)) >= min_stacks:
                return rows, len(all_runs)
        seed += 1000
        rng = random.Random(seed)


GRIDS = [
    # name, height, width, blocks, max entries, longest open entry, seed, theme entries
    ("15x15-a", 15, 15, 38, 78, 9, 1, ()),
    ("15x15-b", 15, 15, 38, 78, 10, 2, ()),
    ("15x15-c", 15, 15, 36, 76, 11, 3, ()),
    ("15x15-d", 15, 15, 40, 78, 8, 4, ()),
    ("15x15-e", 15, 15, 34, 72, 15, 5, ()),
    ("15x15-theme-2x15", 15, 15, 38, 78, 9, 6,
     ((3, 0, "CATCHMEIFYOUCAN"), (11, 0, "ALLTHATGLITTERS"))),
    ("21x21-sunday-a", 21, 21, 72, 140, 11, 8, ()),
    ("21x21-sunday-b", 21, 21, 78, 140, 12, 9, ()),
    ("21x21-sunday-theme", 21, 21, 78, 140, 11, 30,
     ((3, 0, "ALLSYSTEMSGOFORLAUNCH"), (17, 0, "BACKTOTHEDRAWINGBOARD"))),
    ("13x17-rect", 13, 17, 30, 70, 10, 11, ()),
    ("15x21-rect", 15, 21, 54, 104, 10, 12, ()),
    ("21x21-sunday-c", 21, 21, 74, 140, 12, 13, ()),
    ("21x21-sunday-d", 21, 21, 70, 136, 13, 14, ()),
]

# Themeless 15x15: 60-72 entries, none longer than 10, open corners made of stacks of
# 7-10 letter entries (at least 4 stacks, see stacks()).
THEMELESS = [
    # name, blocks, fewest and most entries, seed
    ("15x15-themeless-a", 32, 64, 72, 41),
    ("15x15-themeless-b", 30, 62, 70, 42),
    ("15x15-themeless-c", 32, 64, 70, 43),
    ("15x15-themeless-d", 34, 66, 72, 44),
    ("15x15-themeless-e", 28, 60, 68, 45),
    ("15x15-themeless-f", 30, 64, 72, 46),
    # Four more of the same kinds, so that a share like 90 % is not "all of six".
    ("15x15-themeless-g", 32, 64, 72, 47),
    ("15x15-themeless-h", 30, 62, 70, 48),
    ("15x15-themeless-i", 32, 64, 70, 49),
    ("15x15-themeless-j", 34, 66, 72, 50),
]


def main():
    out = Path(sys.argv[1] if len(sys.argv) > 1 else Path(__file__).parent)
    only = sys.argv[2:]
    for name, h, w, blocks, max_words, max_len, seed, themes in GRIDS:
        if only and name not in only:
            continue
        rows, words = make(h, w, blocks, max_words, max_len, seed, themes)
        (out / f"{name}.txt").write_text("\n".join(rows) + "\n")
        print(f"{name}: {h}x{w}, {blocks} blocks, {words} entries")
    for name, blocks, min_words, max_words, seed in THEMELESS:
        if only and name not in only:
            continue
        rows, words = make(15, 15, blocks, max_words, 10, seed, min_words=min_words, min_stacks=4)
        (out / f"{name}.txt").write_text("\n".join(rows) + "\n")
        print(f"{name}: 15x15, {blocks} blocks, {words} entries, stacks {sorted(stacks(rows), reverse=True)}")


if __name__ == "__main__":
    main()
