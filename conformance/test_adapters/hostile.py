#!/usr/bin/env python3
"""Hostile adapters: the ways an adapter can misbehave that `retry-policy
check` and `stats` must turn into a clear verdict (exit 2, naming the
failure), never a silent pass, a crash or unbounded memory.

    python3 hostile.py MODE

Each mode answers every request line with the real Python port's answer
(adapters/python/adapter.py), spoiled as the mode says. The giant answers
are written in chunks, so the adapter itself stays small and any memory a
test measures is the checker's.
"""

import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent / "adapters" / "python"))

import adapter  # noqa: E402

MB = 1 << 20


def giant(prefix, unit, total, suffix):
    """Writes prefix, then `unit` repeated to about `total` bytes, then suffix."""
    out = sys.stdout.buffer
    out.write(prefix)
    chunk = unit * (MB // len(unit))
    for _ in range(total // len(chunk)):
        out.write(chunk)
    out.write(suffix + b"\n")
    out.flush()


def answer_id(line):
    """The request's id as answer text, from the real adapter's answer."""
    answer = adapter.answer_line(line)
    return answer[len('{"id":'):answer.index(',"ok":')].encode("ascii")


# One row a mode: what the adapter writes for each request line. The
# conformance test (tests/hostile_adapters_test.py) holds, for each, the
# exit code and the message `check` and `stats` must give.
MODES = {
    # A correct answer, then a NUL and garbage on the same line: the JSON
    # reader stops at the NUL, so this passed as AGREE once.
    "nul-then-garbage": lambda line: sys.stdout.buffer.write(
        adapter.answer_line(line).encode("ascii") + b"\0 this is not JSON {{{\n"),
    # A correct answer with bytes after it.
    "trailing-bytes": lambda line: sys.stdout.buffer.write(
        adapter.answer_line(line).encode("ascii") + b" x\n"),
    # About 63 MB of [{},{},...]: under the 64 MiB line cap, 21 million
    # values; a tree of it took 2.1 GB.
    "huge-array-of-objects": lambda line: giant(
        b'{"id":' + answer_id(line) + b',"ok":true,"result":[{}', b",{}", 63 * MB, b"]}"),
    # A 52 MB id that is not the request's: the report once copied it
    # whole to stdout.
    "huge-wrong-id": lambda line: giant(b'{"id":"', b"x", 52 * MB, b'","ok":false,"error":"e"}'),
    # A 60 MB error message: longer than any answer needs, refused on the
    # raw bytes before a JSON reader holds it.
    "huge-error": lambda line: giant(
        b'{"id":' + answer_id(line) + b',"ok":false,"error":"', b"e", 60 * MB, b'"}'),
    # A wrong 3 MB id, under the longest string an answer may hold: read,
    # found wrong, and shown clipped.
    "big-wrong-id": lambda line: giant(b'{"id":"', b"x", 3 * MB, b'","ok":false,"error":"e"}'),
    # A 3 MB error message where a result is due: a difference, its message
    # kept to 4 kB and shown clipped.
    "big-error": lambda line: giant(
        b'{"id":' + answer_id(line) + b',"ok":false,"error":"', b"e", 3 * MB, b'"}'),
    # Every answer right, then one more line once the input ends: an answer
    # to no request, which passed as AGREE until check read past the last
    # answer (a Go port's EOF test inverted writes just this).
    "line-after-the-end": lambda line: sys.stdout.buffer.write(
        adapter.answer_line(line).encode("ascii") + b"\n"),
}
# What a mode writes once its input ends.
AT_THE_END = {"line-after-the-end": b'{"id":null,"ok":false,"error":"line: empty"}\n'}


def main():
    if len(sys.argv) != 2 or sys.argv[1] not in MODES:
        sys.exit(f"usage: hostile.py {{{'|'.join(MODES)}}}")
    mode = MODES[sys.argv[1]]
    for line in adapter.lines(sys.stdin.buffer):
        if isinstance(line, int):
            line = b"{}"
        mode(line)
        sys.stdout.buffer.flush()
    sys.stdout.buffer.write(AT_THE_END.get(sys.argv[1], b""))


if __name__ == "__main__":
    main()
