#!/usr/bin/env python3
"""The README's examples as checks (used by tests/api/readme.test.sh).

  readme_examples.py list README.md
      prints one JSON object a line for every example in the README's ```sh blocks that
      shows its answer: a `curl` command (with its continuation lines) followed, in its
      trailing comment or the comment lines after it, by "the job's result: VALUE" (kind
      "job": the answer of the job the command queues) or by a comment line starting with
      "{" (kind "body": the response body), or by a status and the body, "422; {…}" or
      "422, "field": "trim", …" (kind "status 422"; the command must show the headers). Commands holding a placeholder (…, FILL_ID,
      SERIAL, RUN_ID) cannot run as written and are left out, and so is a block right
      after the line "<!-- answers vary -->" (answers that differ on every server, such as a
      new book's serial). A `curl` example that reads a shell variable runs after the
      commands of its block that are not `curl` lines (`fill=$(curl …)`, a wait).

  readme_examples.py match SHOWN ACTUAL.json
      exits 0 when the JSON in ACTUAL.json is what SHOWN shows, else prints the difference
      and exits 1. SHOWN is JSON in which "…" elides: an object shows some of the keys, an
      array element "…" stands for any further elements, "…" alone for any value, and "…"
      inside a string for any text. A number with decimals is compared rounded to them.
      Text after the value ("; pass it back …") is ignored.
"""
import json
import re
import sys

ELLIPSIS = "\u2026"
PLACEHOLDERS = re.compile(ELLIPSIS + r"|FILL_ID|SERIAL|RUN_ID")
RESULT_MARK = "the job's result:"


class Incomplete(Exception):
    """The shown value goes on in the next comment line."""


class Pattern:
    def __init__(self, text):
        self.text = text
        self.pos = 0

    def ws(self):
        while self.pos < len(self.text) and self.text[self.pos] in " \t\r\n":
            self.pos += 1

    def peek(self):
        self.ws()
        if self.pos >= len(self.text):
            raise Incomplete()
        return self.text[self.pos]

    def expect(self, ch):
        if self.peek() != ch:
            raise ValueError(f"expected {ch!r} at {self.pos} in {self.text!r}")
        self.pos += 1

    def value(self):
        c = self.peek()
        if c == ELLIPSIS:
            self.pos += 1
            return ("any",)
        if c == "{":
            self.pos += 1
            members = []
            while True:
                c = self.peek()
                if c == "}":
                    self.pos += 1
                    return ("object", members)
                if c == ELLIPSIS:
                    self.pos += 1
                else:
                    key = self.string()
                    self.expect(":")
                    members.append((key, self.value()))
                if self.peek() == ",":
                    self.pos += 1
        if c == "[":
            self.pos += 1
            items = []
            while True:
                c = self.peek()
                if c == "]":
                    self.pos += 1
                    return ("array", items)
                if c == ELLIPSIS:
                    self.pos += 1
                    items.append(("rest",))
                else:
                    items.append(self.value())
                if self.peek() == ",":
                    self.pos += 1
        if c == '"':
            s = self.string()
            if ELLIPSIS in s:
                parts = [re.escape(p) for p in s.split(ELLIPSIS)]
                return ("like", re.compile("^" + ".*".join(parts) + "$", re.S), s)
            return ("exact", s)
        m = re.compile(r"-?\d+(\.\d+)?([eE][-+]?\d+)?|true|false|null").match(self.text, self.pos)
        if not m:
            raise ValueError(f"no value at {self.pos} in {self.text!r}")
        self.pos = m.end()
        token = m.group(0)
        if m.group(1) and not m.group(2):
            return ("rounded", float(token), len(m.group(1)) - 1)
        return ("exact", json.loads(token))

    def string(self):
        self.ws()
        if self.pos >= len(self.text):
            raise Incomplete()
        try:
            s, end = json.JSONDecoder().raw_decode(self.text, self.pos)
        except json.JSONDecodeError as e:
            if "Unterminated" in e.msg:
                raise Incomplete() from e
            raise
        if not isinstance(s, str):
            raise ValueError(f"expected a string at {self.pos} in {self.text!r}")
        self.pos = end
        return s


def parse_shown(text):
    return Pattern(text).value()


def match(pat, actual, path="$"):
    """Returns None when ACTUAL is what PAT shows, else a message naming the place."""
    kind = pat[0]
    if kind == "any":
        return None
    if kind == "exact":
        same = pat[1] == actual and type(pat[1]) is type(actual) or (
            isinstance(pat[1], (int, float)) and not isinstance(pat[1], bool)
            and isinstance(actual, (int, float)) and not isinstance(actual, bool) and pat[1] == actual)
        return None if same else f"{path}: shown {json.dumps(pat[1])}, answered {json.dumps(actual)}"
    if kind == "rounded":
        ok = isinstance(actual, (int, float)) and round(actual, pat[2]) == pat[1]
        return None if ok else f"{path}: shown {pat[1]}, answered {json.dumps(actual)}"
    if kind == "like":
        ok = isinstance(actual, str) and pat[1].match(actual)
        return None if ok else f"{path}: shown {json.dumps(pat[2])}, answered {json.dumps(actual)}"
    if kind == "object":
        if not isinstance(actual, dict):
            return f"{path}: shown an object, answered {json.dumps(actual)[:200]}"
        for key, sub in pat[1]:
            if key not in actual:
                return f"{path}: shown key {key!r}, not in the answer (keys {sorted(actual)})"
            msg = match(sub, actual[key], f"{path}.{key}")
            if msg:
                return msg
        return None
    if kind == "array":
        if not isinstance(actual, list):
            return f"{path}: shown an array, answered {json.dumps(actual)[:200]}"
        items = pat[1]
        rests = [i for i, p in enumerate(items) if p[0] == "rest"]
        if not rests:
            if len(items) != len(actual):
                return f"{path}: shown {len(items)} elements, answered {len(actual)}"
            head, tail = items, []
        else:
            head, tail = items[: rests[0]], items[rests[-1] + 1 :]
            if any(p[0] != "rest" for p in items[rests[0] : rests[-1] + 1]):
                raise ValueError("shown elements between two … cannot be placed")
            if len(head) + len(tail) > len(actual):
                return f"{path}: shown at least {len(head) + len(tail)} elements, answered {len(actual)}"
        for i, sub in enumerate(head):
            msg = match(sub, actual[i], f"{path}[{i}]")
            if msg:
                return msg
        for i, sub in enumerate(tail):
            j = len(actual) - len(tail) + i
            msg = match(sub, actual[j], f"{path}[{j}]")
            if msg:
                return msg
        return None
    raise ValueError(f"unknown pattern {pat!r}")


def scan(text):
    """Shell-quote-aware scan: (open, comment) — whether the text ends inside quotes or a
    line continuation, and where its trailing comment starts (None without one)."""
    i, quote = 0, None
    while i < len(text):
        c = text[i]
        if quote == "'":
            if c == "'":
                quote = None
        elif quote == '"':
            if c == "\\":
                i += 1
            elif c == '"':
                quote = None
        elif c in "'\"":
            quote = c
        elif c == "\\":
            if i + 1 == len(text):
                return True, None
            i += 1
        elif c == "#" and (i == 0 or text[i - 1] in " \t"):
            return False, i
        i += 1
    return quote is not None, None


def shown_value(first, following, members=False):
    """The shown text starting at FIRST, continued by the comment lines FOLLOWING while the
    value is open; None when it does not parse. MEMBERS: the text is an object's members
    without the braces (`"field": "trim", "detail": "…"`)."""
    text = first
    rest = list(following)
    while True:
        try:
            parse_shown("{" + text + "}" if members else text)
            return "{" + text + "}" if members else text
        except Incomplete:
            if not rest:
                return None
            text += " " + rest.pop(0)
        except ValueError:
            return None


def examples(readme):
    lines = open(readme, encoding="utf-8").read().split("\n")
    out = []
    in_sh = False
    setup = []  # the block's commands that are not `curl` lines: assignments, waits
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.startswith("```"):
            varies = i > 0 and lines[i - 1].strip() == "<!-- answers vary -->"
            in_sh = line.strip() == "```sh" and not in_sh and not varies
            setup = []
            i += 1
            continue
        if not in_sh or not line.strip() or line.startswith("#"):
            i += 1
            continue
        start = i
        command = line
        while scan(command)[0] and i + 1 < len(lines):
            i += 1
            command += "\n" + lines[i]
        _, at = scan(command)
        trailing = command[at + 1 :].strip() if at is not None else None
        if at is not None:
            command = command[:at].rstrip()
        if not line.startswith("curl "):
            setup.append(command)
            i += 1
            continue
        comments = []
        j = i + 1
        while j < len(lines) and lines[j].startswith("#"):
            comments.append(lines[j][1:].strip())
            j += 1
        i += 1
        found = None
        candidates = ([trailing] if trailing else []) + comments
        for k, c in enumerate(candidates):
            rest = candidates[k + 1 :]
            if RESULT_MARK in c:
                found = ("job", shown_value(c.split(RESULT_MARK, 1)[1].strip(), rest))
                break
            if c.startswith("{") and (k > 0 or not trailing):
                found = ("body", shown_value(c, rest))
                break
            status = re.match(r'(\d{3})(; (?=\{)|, (?="))', c)
            if status and (k > 0 or not trailing):
                shown = shown_value(c[status.end() :], rest, members=status.group(2) == ", ")
                found = ("status " + status.group(1), shown)
                break
        if not found or PLACEHOLDERS.search(command):
            continue
        if re.search(r"\$[A-Za-z_{]", command):
            # It reads a variable an earlier command of its block sets: run those first.
            if any(PLACEHOLDERS.search(c) for c in setup):
                continue
            command = "\n".join(setup + [command])
        out.append({"line": start + 1, "command": command, "kind": found[0], "shown": found[1]})
    return out


def main():
    if sys.argv[1] == "list":
        for ex in examples(sys.argv[2]):
            print(json.dumps(ex, ensure_ascii=False))
        return 0
    if sys.argv[1] == "match":
        shown = sys.argv[2]
        try:
            pat = parse_shown(shown)
        except (Incomplete, ValueError) as e:
            print(f"the shown answer does not parse: {shown!r} ({e!r})")
            return 1
        with open(sys.argv[3], encoding="utf-8") as f:
            try:
                actual = json.load(f)
            except json.JSONDecodeError as e:
                print(f"the answer is not JSON ({e})")
                return 1
        msg = match(pat, actual)
        if msg:
            print(msg)
            return 1
        return 0
    print(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main())
