#!/usr/bin/env python3
"""Runs a command and passes only if it exits with exactly the expected code
and its output says what it should: CTest alone only tells zero from non-zero,
and `check` exiting 2 (adapter broke) must not pass for 1 (answers differ).

    expect_exit.py CODE [--says TEXT]... [--timeout SECONDS] -- COMMAND...
"""

import argparse
import subprocess
import sys

from assertions import expect, fail, finish


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("code", type=int)
    parser.add_argument("--says", action="append", default=[],
                        help="text the combined output must contain")
    parser.add_argument("--timeout", type=float, default=600)
    if "--" not in sys.argv:
        parser.error("the command goes after --")
    split = sys.argv.index("--")
    args = parser.parse_args(sys.argv[1:split])
    command = sys.argv[split + 1:]
    try:
        run = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                             timeout=args.timeout)
    except subprocess.TimeoutExpired:
        fail(f"still running after {args.timeout} s: {command}")
        return finish()
    output = run.stdout.decode("utf-8", "replace")
    print(output[-20000:])
    expect(run.returncode == args.code, f"exit code {run.returncode}, expected {args.code}")
    for text in args.says:
        expect(text in output, f"output does not say {text!r}")
    return finish()


if __name__ == "__main__":
    sys.exit(main())
