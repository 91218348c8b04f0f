#!/usr/bin/env python3
"""A sample-only adapter whose default source is another language's: the
Python port's arithmetic, drawing from a child process.

    python3 sample_adapter.py -- COMMAND [ARG...]

COMMAND is one of this folder's source programs (README.md): it reads
requests "T N" on stdin and answers N draws of the source under test, one a
line, drawn by T threads of its language at once when T > 1. This adapter
speaks the protocol's `sample` op (docs/protocol.md, Ops) with the Python
port's adapter and port (../../adapters/python), unchanged but for the
default source and for `threads`, which are the child's threads instead of
Python's, so what `retry-policy stats` reads is the foreign source and
nothing else. Every other op is refused with a protocol error: `check`
belongs to a real port, and this adapter's arithmetic is the Python port's.

A draw's line is the double in shortest round-trip decimal (read with
float(), which rounds correctly) or "x" and its 64 bits in hex (Java and
.NET, whose own decimal forms are not always shortest or exact). A line
"error: ..." answers the request with that error: a language with no
threads that share a source says so when asked for T > 1.
"""

import collections
import itertools
import pathlib
import struct
import subprocess
import sys

# The Python port and its adapter, whose sample op answers here; drifted.py
# already gives the port a default source of our choosing.
_HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(_HERE.parent.parent / "adapters" / "python"))
sys.path.insert(0, str(_HERE.parent))

import adapter  # noqa: E402
from drifted import with_default_source  # noqa: E402


class ChildSource:
    """The source under test: draws read from the child, in the order it
    made them, so consecutive calls of the port are consecutive draws."""

    def __init__(self, command):
        self.command = command
        self.child = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                      bufsize=1 << 20)
        self.stream = collections.deque()   # the one-thread stream, carried over requests
        self.chunk = adapter.MAX_SAMPLE_COUNT
        self.threaded = None                 # (threads, count) while a threads request draws
        self.batch = None

    def ask(self, threads, count):
        """count draws, made by `threads` threads of the child's language."""
        try:
            self.child.stdin.write(f"{threads} {count}\n".encode("ascii"))
            self.child.stdin.flush()
        except OSError as e:
            raise self.gone(f"could not be asked ({e})") from None
        # The first line alone, since a child that refuses writes only one.
        first = self.child.stdout.readline()
        if first.startswith(b"error:"):
            raise adapter.ProtocolError("sample: the source says: "
                                        + first[len(b"error:"):].decode("ascii", "replace").strip())
        lines = [first] + list(itertools.islice(self.child.stdout, count - 1)) if first else []
        if len(lines) < count or not lines[-1].endswith(b"\n"):
            raise self.gone(f"ended its output after {len(lines)} of {count} draws")
        try:
            return parse_draws(lines)
        except (ValueError, OverflowError, struct.error):
            bad = next(line for line in lines if not is_draw(line))
            raise adapter.ProtocolError(f"sample: the source wrote {bad[:60]!r}, not a draw") from None

    def gone(self, what):
        status = self.child.poll()
        ending = "is still running" if status is None else f"exited with status {status}"
        return adapter.ProtocolError(f"sample: the source's process ({' '.join(self.command)}) "
                                     f"{what} and {ending}")

    def __call__(self):
        if self.threaded is not None:
            if self.batch is None:
                self.batch = collections.deque(self.ask(*self.threaded))
            return self.batch.popleft()
        if not self.stream:
            self.stream.extend(self.ask(1, self.chunk))
        return self.stream.popleft()

    def close(self):
        """Ends the child at the end of our input; its status goes to stderr."""
        try:
            self.child.stdin.close()
        except OSError:
            pass
        try:
            status = self.child.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.child.kill()
            status = self.child.wait()
        if status != 0:
            print(f"sample_adapter: the source's process exited with status {status}",
                  file=sys.stderr)


def parse_draws(lines):
    """The doubles of the child's lines, exactly: all decimal, or all bits."""
    if lines[0].startswith(b"x"):
        bits = [int(line[1:], 16) for line in lines]
        return list(struct.unpack(f"<{len(bits)}d", struct.pack(f"<{len(bits)}Q", *bits)))
    return [float(line) for line in lines]  # float() reads bytes, rounding correctly


def is_draw(line):
    try:
        parse_draws([line])
        return True
    except (ValueError, OverflowError, struct.error):
        return False


def main():
    if len(sys.argv) < 3 or sys.argv[1] != "--":
        sys.exit("usage: sample_adapter.py -- COMMAND [ARG...]")
    source = ChildSource(sys.argv[2:])
    policy_class = with_default_source(source)

    def drawn_by_the_childs_threads(draw, count, threads):
        # The port's sample calls this for threads > 1: the threads are the
        # child's, on its shared source, and the port's arithmetic runs here
        # in the order of the draws they made.
        source.threaded, source.batch = (threads, count), None
        try:
            return [draw() for _ in range(count)]
        finally:
            source.threaded, source.batch = None, None

    adapter.drawn_at_once = drawn_by_the_childs_threads

    def answer(raw):
        try:
            request = adapter.parse_request(raw)
        except adapter.ProtocolError:
            return adapter.answer_line(raw, policy_class)  # the port's words for a bad line
        if isinstance(request, dict) and request.get("op") != "sample":
            return ('{"id":%s,"ok":false,"error":"op: this adapter answers only \\"sample\\" '
                    '(a foreign source through the Python port); check a port with its own '
                    'adapter"}' % adapter._compact(request.get("id")))
        count = request.get("count") if isinstance(request, dict) else None
        source.chunk = (count if type(count) is int and 1 <= count <= adapter.MAX_SAMPLE_COUNT
                        else adapter.MAX_SAMPLE_COUNT)
        return adapter.answer_line(raw, policy_class)

    stdout = sys.stdout.buffer
    try:
        for line in adapter.lines(sys.stdin.buffer):
            if isinstance(line, int):
                reply = ('{"id":null,"ok":false,"error":"line: %d bytes is longer than the '
                         "protocol's %d\"}" % (line, adapter.MAX_LINE_BYTES))
            else:
                reply = answer(line)
            stdout.write(reply.encode("ascii") + b"\n")
            stdout.flush()
    finally:
        source.close()


if __name__ == "__main__":
    main()
