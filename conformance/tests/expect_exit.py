#!/usr/bin/env python3
"""Runs a command and passes only if it exits with exactly the expected code
and its report holds what it should: CTest alone only tells zero from
non-zero, and `check` exiting 2 (adapter broke) must not pass for 1 (answers
differ).

    expect_exit.py CODE [--report FILE [--field PATH=VALUE | --field PATH~TEXT]...]
                   [--says TEXT]... [--timeout SECONDS] -- COMMAND...

--report names the JSON report the command writes (`check --json FILE`), and
each --field a value in it: PATH is keys and indexes, `mismatches[0].shrunk.
queries`; `=` wants the value equal to VALUE (JSON, or else a string), `~` a
string that holds TEXT. --says looks for TEXT in the output, for what no
report holds as data.
"""

import argparse
import json
import re
import subprocess
import sys

from assertions import expect, fail, finish


def value_at(report, path):
    """The value at PATH (`a.b[2].c`), or KeyError."""
    value = report
    for name, index in re.findall(r"([^.\[\]]+)|\[(\d+)\]", path):
        try:
            value = value[int(index)] if index else value[name]
        except (IndexError, KeyError, TypeError):
            raise KeyError(path) from None
    return value


def check_field(report, field):
    path, how, wanted = re.match(r"([^=~]+)([=~])(.*)", field, re.S).groups()
    try:
        value = value_at(report, path)
    except KeyError:
        return fail(f"the report has no {path}")
    if how == "~":
        return expect(isinstance(value, str) and wanted in value,
                      f"{path} is {value!r}, which does not hold {wanted!r}")
    try:
        wanted = json.loads(wanted)
    except ValueError:
        pass  # a bare string
    return expect(value == wanted, f"{path} is {value!r}, expected {wanted!r}")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("code", type=int)
    parser.add_argument("--says", action="append", default=[],
                        help="text the combined output must contain")
    parser.add_argument("--report", help="the JSON report the command writes")
    parser.add_argument("--field", action="append", default=[],
                        help="PATH=VALUE or PATH~TEXT, in the report")
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
    if args.field:
        try:
            with open(args.report) as f:
                report = json.load(f)
        except (OSError, TypeError, ValueError) as e:
            fail(f"no report to read ({args.report}): {e}")
        else:
            for field in args.field:
                check_field(report, field)
    return finish()


if __name__ == "__main__":
    sys.exit(main())
