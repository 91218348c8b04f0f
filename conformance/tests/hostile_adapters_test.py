#!/usr/bin/env python3
"""`retry-policy check` and `stats` against hostile adapters
(test_adapters/hostile.py) and hostile inputs: every case ends in a clear
verdict or a usage error (the exit code and the words asserted), within a
time bound, with retry-policy's peak RSS within the bound the kit states
(conformance/README.md: 256 MB whatever the adapter writes), and with the
adapter's words clipped in the report.

    hostile_adapters_test.py RETRY_POLICY PYTHON TEST_ADAPTERS_DIR WORK_DIR
"""

import os
import shlex
import sys
import tempfile
import time

from assertions import expect, finish

MAX_RSS_MB = 256       # conformance/README.md, "What check and stats promise"
MAX_SECONDS = 60       # each case's wall time, generous for a loaded machine
MAX_REPORT_BYTES = 64 * 1024  # the adapter's words are clipped: no 52 MB echo


def run(rp, args, stdin=None):
    """retry-policy ARGS: exit code, output (stdout and stderr), seconds and
    peak RSS in MB of retry-policy (the adapters here write their giant
    answers in chunks, so theirs stays small). `stdin`: a file to read."""
    with tempfile.TemporaryFile() as out:
        started = time.monotonic()
        pid = os.fork()
        if pid == 0:
            if stdin is not None:
                os.dup2(os.open(stdin, os.O_RDONLY), 0)
            os.dup2(out.fileno(), 1)
            os.dup2(out.fileno(), 2)
            os.execv(rp, [rp, *args])
        _, status, usage = os.wait4(pid, 0)
        seconds = time.monotonic() - started
        out.seek(0)
        text = out.read().decode("utf-8", "replace")
    code = os.waitstatus_to_exitcode(status)
    print(f"--- retry-policy {' '.join(args)[:160]} -> {code} in {seconds:.1f} s, "
          f"peak RSS {usage.ru_maxrss / 1024:.0f} MB, {len(text)} bytes of output", flush=True)
    print(text[-2000:], flush=True)
    return code, text, seconds, usage.ru_maxrss / 1024


def expect_case(name, rp, args, code, says, stdin=None):
    status, text, seconds, rss = run(rp, args, stdin)
    expect(status == code, f"{name}: exit {status}, expected {code}")
    for words in says:
        expect(words in text, f"{name}: the output does not say {words!r}")
    expect(seconds <= MAX_SECONDS, f"{name}: took {seconds:.0f} s, more than {MAX_SECONDS}")
    expect(rss <= MAX_RSS_MB, f"{name}: peak RSS {rss:.0f} MB, more than {MAX_RSS_MB}")
    expect(len(text) <= MAX_REPORT_BYTES,
           f"{name}: {len(text)} bytes of output, more than {MAX_REPORT_BYTES}")


# (mode, what check must say, what stats must say): each exits 2, the
# adapter blamed.
CASES = [
    ("nul-then-garbage", "holds a NUL byte", "holds a NUL byte"),
    ("trailing-bytes", "not a protocol answer", "not a protocol answer"),
    ("huge-array-of-objects", "more than any answer can", "ADAPTER FAILED"),
    ("huge-wrong-id", "holds a string of more than 4194304 bytes", "ADAPTER FAILED"),
    ("huge-error", "holds a string of more than 4194304 bytes", "ADAPTER FAILED"),
    ("big-wrong-id", "answered id \"xxxxxxxx", "ADAPTER FAILED"),
    ("line-after-the-end", "wrote a line after its last answer", "after its last answer"),
]


def main(rp, python, test_adapters, work):
    os.makedirs(work, exist_ok=True)
    hostile = lambda mode: (f"{shlex.quote(python)} "
                            f"{shlex.quote(os.path.join(test_adapters, 'hostile.py'))} {mode}")
    small = ["--no-vectors", "--cases", "3", "--seed", "1"]
    for mode, check_says, stats_says in CASES:
        expect_case(f"check {mode}", rp, ["check", "--impl", hostile(mode), *small], 2,
                    ["ADAPTER FAILED", check_says, "FAILED TO CHECK"])
        # One process: the fleet reads its answers with the same reader, and
        # 16 writers of 63 MB each would only cost time.
        expect_case(f"stats {mode}", rp,
                    ["stats", "--impl", hostile(mode), "--n", "10240", "--processes", "1",
                     "--report-dir", os.path.join(work, "report")], 2, [stats_says])
    # A 3 MB error message: an answer (errors are never compared), so a
    # difference where a result is due, reported with the message clipped;
    # shrinking it too, which asks the adapter again.
    expect_case("check big-error", rp, ["check", "--impl", hostile("big-error"), *small],
                1, ["DIFFERENT", "more bytes)"])

    # Inputs checked before the work: a vector file that is not a regular
    # file, or has no line end within the line cap, is a usage error naming
    # it; it was read as empty, and the port passed.
    good = f"{shlex.quote(python)} {shlex.quote(os.path.join(test_adapters, '..', 'adapters', 'python', 'adapter.py'))}"
    expect_case("check --vectors /dev/zero", rp,
                ["check", "--impl", good, "--vectors", "/dev/zero", "--cases", "0"], 2,
                ["USAGE: vector file /dev/zero is not a regular file", "FAILED TO CHECK"])
    endless = os.path.join(work, "endless.jsonl")
    with open(endless, "wb") as f:
        f.write(b'{"id":1,"op":"schedule","policy":{"note":"' + b"n" * (2 * 1024 * 1024))
    expect_case("check --vectors without a line end", rp,
                ["check", "--impl", good, "--vectors", endless, "--cases", "0"], 2,
                [f"USAGE: {endless}:1 is 2097194 bytes, longer than the protocol's 1048576"])

    # serve, fed what a hostile client might send: a 63 MB line of
    # [{},{},...], one of 60 MB inside a string, and then a good request,
    # which is still answered; each long line is dropped unread.
    lines = os.path.join(work, "serve-lines.jsonl")
    with open(lines, "wb") as f:
        f.write(b'{"id":1,"op":"schedule","policy":{},"x":[{}' + b",{}" * (21 * 1024 * 1024) + b"]}\n")
        f.write(b'{"id":2,"op":"schedule","policy":{},"x":"' + b"s" * (60 * 1024 * 1024) + b'"}\n')
        f.write(b'{"id":3,"op":"schedule","policy":{"max_attempts":2}}\n')
    expect_case("serve, 63 MB and 60 MB lines", rp, ["serve"], 0,
                ["longer than the protocol's 1048576", '{"id":3,"ok":true,"result":[0.0]}'],
                stdin=lines)

    return finish()


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
