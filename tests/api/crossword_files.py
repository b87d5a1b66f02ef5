"""Reads a fill's .puz and .ipuz back with the PyPI libraries (puzpy, ipuz) and compares
them with what the API says: the fill's JSON (rows, numbered entries, clues_missing) and the
request (title, author, copyright, notes, clues). The numbering is also computed here, from
the rows, by the standard rule, independently of the service.

Usage: crossword_files.py REQUEST.json FILL.json PUZZLE.puz PUZZLE.ipuz
Prints nothing and exits 0 when everything matches; otherwise prints what differs.
"""

import json
import sys

import ipuz
import puz


def numbering(rows):
    """(number, row, col, dir, length) of every entry, standard numbering, 0-based."""
    h, w = len(rows), len(rows[0])
    white = lambda r, c: 0 <= r < h and 0 <= c < w and rows[r][c] != "#"
    entries, n = [], 0
    for r in range(h):
        for c in range(w):
            if not white(r, c):
                continue
            across = not white(r, c - 1) and white(r, c + 1)
            down = not white(r - 1, c) and white(r + 1, c)
            if not (across or down):
                continue
            n += 1
            for d, go, (dr, dc) in (("A", across, (0, 1)), ("D", down, (1, 0))):
                if go:
                    length = 0
                    while white(r + dr * length, c + dc * length):
                        length += 1
                    entries.append((n, r, c, d, length))
    return entries


def to_latin1(text):
    """What the .puz holds for a text: the service's documented ASCII forms of typographic
    punctuation; these tests only send Latin-1 text besides those."""
    for a, b in (("\u201c", '"'), ("\u201d", '"'), ("\u2018", "'"), ("\u2019", "'"), ("\u2013", "-"),
                 ("\u2014", "--"), ("\u2026", "...")):
        text = text.replace(a, b)
    return text


def main(request_path, fill_path, puz_path, ipuz_path):
    request = json.load(open(request_path))
    fill = json.load(open(fill_path))["result"]
    rows = fill["rows"]
    h, w = len(rows), len(rows[0])
    clues = request.get("clues", {})
    title = request.get("title") or "Crossword"
    texts = {k: request.get(k, "") for k in ("author", "copyright", "notes")}
    entries = numbering(rows)
    errors = []

    def check(what, got, want):
        if got != want:
            errors.append(f"{what}: got {got!r}, want {want!r}")

    # The API's own entries agree with the standard numbering of its rows.
    api = [(e["number"], e["row"] - 1, e["col"] - 1, d, len(e["word"]))
           for d, key in (("A", "across"), ("D", "down")) for e in fill[key]]
    check("API entries vs numbering of the rows", sorted(api), sorted(entries))
    keys = [f"{n}{d}" for (n, _, _, d, _) in entries]
    check("clues_missing", sorted(fill["clues_missing"]), sorted(k for k in keys if not clues.get(k, "").strip()))

    # .puz: puzpy checks the global, header (CIB) and masked checksums on load.
    p = puz.read(puz_path)
    check("puz size", (p.width, p.height), (w, h))
    check("puz solution", p.solution, "".join(rows).replace("#", "."))
    check("puz player grid", p.fill, "".join("." if ch == "#" else "-" for ch in "".join(rows)))
    check("puz title", p.title, to_latin1(title))
    for k in ("author", "copyright", "notes"):
        check(f"puz {k}", getattr(p, k), to_latin1(texts[k]))
    numbered = p.clue_numbering()
    got = [(e["num"], e["cell"] // w, e["cell"] % w, d, e["len"], e["clue"])
           for d, group in (("A", numbered.across), ("D", numbered.down)) for e in group]
    want = [(n, r, c, d, length, to_latin1(clues.get(f"{n}{d}", ""))) for (n, r, c, d, length) in entries]
    check("puz numbering and clues", sorted(got), sorted(want))

    # .ipuz: the library validates the document on read.
    doc = ipuz.read(open(ipuz_path, encoding="utf-8").read(), puzzlekinds=["http://ipuz.org/crossword#1"])
    check("ipuz dimensions", doc["dimensions"], {"width": w, "height": h})
    numbers = {(r, c): n for (n, r, c, _, _) in entries}
    check("ipuz puzzle", doc["puzzle"],
          [["#" if rows[r][c] == "#" else numbers.get((r, c), 0) for c in range(w)] for r in range(h)])
    check("ipuz solution", doc["solution"], [["#" if ch == "#" else ch for ch in row] for row in rows])
    for d, name in (("A", "Across"), ("D", "Down")):
        check(f"ipuz {name} clues", doc["clues"][name],
              [[n, clues.get(f"{n}{d}", "")] for (n, _, _, dd, _) in entries if dd == d])
    check("ipuz title", doc["title"], title)
    for k in ("author", "copyright", "notes"):
        check(f"ipuz {k}", doc.get(k, ""), texts[k])

    for e in errors:
        print(e)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
