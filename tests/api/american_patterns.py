"""Checks American-rules patterns from the API against every rule, reading only the
pattern's `rows` (written apart from the generator, sharing none of its code).

Usage: american_patterns.py REQUEST.json JOB.json [WORDS.txt.gz BLOCKLIST.txt]
REQUEST is what was posted; JOB the finished job. With `fillable`, each pattern's fill is
checked too: it fills the pattern (theme letters kept), its entries are distinct, in the
word list (the bundled list given as WORDS, or the request's `words`) with a score of at
least `min_score` (default 50) and not in BLOCKLIST. Prints what is wrong; exits 1 if
anything is.
"""

import gzip
import json
import re
import sys


def runs(line):
    """(start, length) of the maximal runs of non-# squares."""
    return [(m.start(), len(m.group())) for m in re.finditer(r"[^#]+", line)]


def entries(rows):
    """Every entry (a run of 2 or more white squares) as (dir, row, col, text)."""
    cols = ["".join(r[c] for r in rows) for c in range(len(rows[0]))]
    out = [("A", r, s, row[s:s + n]) for r, row in enumerate(rows) for s, n in runs(row) if n >= 2]
    out += [("D", s, c, col[s:s + n]) for c, col in enumerate(cols) for s, n in runs(col) if n >= 2]
    return out


def normalise(word):
    return re.sub(r"[^A-Z]", "", word.upper())


def check(p, req, words, blocked):
    rows = p["rows"]
    h, w = len(rows), len(rows[0])
    bad = []
    size = req.get("size")
    want = (size, size) if size else (req["rows"], req["cols"])
    if (h, w) != want or any(len(r) != w for r in rows):
        return [f"size {h}x{w}, want {want[0]}x{want[1]}"]
    if any(not re.fullmatch(r"[#.A-Z]+", r) for r in rows):
        bad.append("a symbol other than # . A-Z")
    black = lambda r, c: rows[r][c] == "#"
    symmetry = req.get("symmetry", "rotational")
    for r in range(h):
        for c in range(w):
            images = {"rotational": [(h - 1 - r, w - 1 - c)],
                      "mirror": [(r, w - 1 - c), (h - 1 - r, c)], "none": []}[symmetry]
            if any(black(r, c) != black(rr, cc) for rr, cc in images):
                bad.append(f"not {symmetry}-symmetric at row {r + 1}, column {c + 1}")
    # No unchecked squares and no entry shorter than 3: every white square's across and
    # down runs have 3 or more squares; none longer than max_len.
    across = [[0] * w for _ in range(h)]
    down = [[0] * w for _ in range(h)]
    for r, row in enumerate(rows):
        for s, n in runs(row):
            for c in range(s, s + n):
                across[r][c] = n
    for c in range(w):
        for s, n in runs("".join(row[c] for row in rows)):
            for r in range(s, s + n):
                down[r][c] = n
    max_len = req.get("max_len", max(h, w))
    for r in range(h):
        for c in range(w):
            if not black(r, c):
                for name, n in (("across", across[r][c]), ("down", down[r][c])):
                    if not 3 <= n <= max_len:
                        bad.append(f"row {r + 1}, column {c + 1} is in a {name} run of {n}")
    # Connected, by breadth-first search.
    whites = {(r, c) for r in range(h) for c in range(w) if not black(r, c)}
    if whites:
        seen, todo = set(), [next(iter(sorted(whites)))]
        while todo:
            sq = todo.pop()
            if sq in seen or sq not in whites:
                continue
            seen.add(sq)
            r, c = sq
            todo += [(r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)]
        if seen != whites:
            bad.append(f"white squares not connected ({len(seen)} of {len(whites)} reached)")
    else:
        bad.append("no white square")
    n_black = h * w - len(whites)
    n_words = len(entries(rows))
    if n_black > req.get("max_black_share", 0.16) * h * w + 1e-9:
        bad.append(f"{n_black} black squares of {h * w}")
    # The documented default: 78 at 15x15 scaled by area (rounded), at least rows + cols.
    max_words = req.get("max_words", max((78 * h * w + 112) // 225, h + w))
    if n_words > max_words:
        bad.append(f"{n_words} entries > {max_words}")
    if n_words < req.get("min_words", 0):
        bad.append(f"{n_words} entries < min_words")
    if (p["black"], p["words"]) != (n_black, n_words):
        bad.append(f"counts {p['black']} black, {p['words']} words; the rows have {n_black}, {n_words}")
    # Theme entries: each an across entry of the rows, and the squares of every theme entry
    # map under the symmetry onto the squares of a theme entry.
    theme = [normalise(t) for t in req.get("theme", [])]
    placed = {}
    for d, r, c, text in entries(rows):
        if d == "A" and text in theme:
            placed.setdefault(text, []).append((r, c, len(text)))
    squares = set()
    for t in theme:
        if t not in placed:
            bad.append(f"theme entry {t} is not an across entry")
        for r, c, n in placed.get(t, []):
            squares |= {(r, c + i) for i in range(n)}
    for r, c in squares:
        images = {"rotational": [(h - 1 - r, w - 1 - c)], "mirror": [(r, w - 1 - c), (h - 1 - r, c)],
                  "none": []}[symmetry]
        if any(image not in squares for image in images):
            bad.append(f"theme square row {r + 1}, column {c + 1} has no theme square as its symmetric image")
    # The fill.
    if req.get("fillable"):
        fill = p.get("fill")
        if not fill:
            return bad + ["fillable, but no fill"]
        frows = fill["rows"]
        for r in range(h):
            for c in range(w):
                pat, got = rows[r][c], frows[r][c]
                if (pat == "#") != (got == "#") or (pat not in "#." and pat != got) or not re.fullmatch("[#A-Z]", got):
                    bad.append(f"fill row {r + 1}, column {c + 1} is {got!r} on {pat!r}")
        texts = [t for (_, _, _, t) in entries(frows)]
        if len(texts) != len(set(texts)):
            bad.append("an entry is used twice")
        listed = sorted([e["word"] for e in fill["across"] + fill["down"]])
        if listed != sorted(texts):
            bad.append("the fill's entry lists differ from its rows")
        floor = req.get("min_score", 50)
        for t in texts:
            if t in theme:
                continue
            if t not in words or words[t] < floor:
                bad.append(f"{t} is not in the list with a score of {floor} or more")
            if t in blocked and not req.get("allow_offensive"):
                bad.append(f"{t} is blocked")
    return bad


def main(request_path, job_path, words_path=None, block_path=None):
    req = json.load(open(request_path))
    job = json.load(open(job_path))
    words, blocked = {}, set()
    if req.get("words"):
        for line in req["words"]:
            entry, _, score = line.partition(";")
            words[normalise(entry)] = int(score) if score else 50
    elif words_path:
        with gzip.open(words_path, "rt") as f:
            for line in f:
                entry, _, score = line.strip().partition(";")
                words[entry] = int(score) if score else 50
    if block_path:
        blocked = {normalise(l.split(";")[0]) for l in open(block_path) if l.strip() and not l.startswith("#")}
    patterns = job["result"]["patterns"]
    problems = [] if patterns else ["no patterns: " + str(job["result"].get("reason"))]
    if len({tuple(p["rows"]) for p in patterns}) != len(patterns):
        problems.append("a pattern is returned twice")
    for i, p in enumerate(patterns):
        problems += [f"pattern {i}: {b}" for b in check(p, req, words, blocked)]
    for b in problems[:20]:
        print(b)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
