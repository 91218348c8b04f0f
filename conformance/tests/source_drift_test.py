#!/usr/bin/env python3
"""`retry-policy stats` end to end, at a chosen n: a wrong source rejected
for the right reason, a right one passed.

    source_drift_test.py rejects RETRY_POLICY WORK_DIR --n N --table ADAPTER --drift DRIFT
                         [--impl COMMAND] [--check-cases C]
        `check --impl COMMAND --cases C` exits 0 (the arithmetic is right:
        check injects r, so it cannot see a source), and `stats --impl
        COMMAND --n N` exits 1 naming what `ADAPTER --rejected-by DRIFT` says
        must reject it (drifted_adapter's table): each test name in at least
        one cell's FAIL line, and each phrase (a name with a space in it:
        "resolution B bits", "the draws sit on a 1 ms grid") in a verdict
        line. COMMAND is
        "ADAPTER DRIFT" unless given: give `retry-policy serve`, whose source
        is right, to see the test fail.

    source_drift_test.py passes RETRY_POLICY WORK_DIR --n N --impl COMMAND [--says TEXT]...
                         [--resolution] [-- STATS_ARG...]
        `stats --impl COMMAND --n N STATS_ARG...` exits 0, every cell passes,
        and the output says each TEXT (and, with --resolution, the source's
        resolution in bits: the rule was judged).

    source_drift_test.py table ADAPTER README
        README holds `ADAPTER --table` word for word: the drift table the
        room's README shows is the one the tests run.

Every run prints its commands, their exit codes and times, and stats'
output, so a failure shows the verdict and the power table at that n.
"""

import argparse
import os
import re
import shlex
import subprocess
import sys
import time

from assertions import expect, fail, finish


def run(command, timeout=600):
    started = time.monotonic()
    print("$", shlex.join(command), flush=True)
    try:
        done = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              timeout=timeout)
    except subprocess.TimeoutExpired:
        fail(f"still running after {timeout} s: {shlex.join(command)}")
        return None, ""
    out = done.stdout.decode("utf-8", "replace")
    err = done.stderr.decode("utf-8", "replace")
    print(f"--- exit {done.returncode} in {time.monotonic() - started:.2f} s")
    print(out[-12000:])
    print(err[-1500:])
    return done.returncode, out


def stats(args, impl, extra=()):
    report = os.path.join(args.work, "report")
    return run([args.retry_policy, "stats", "--impl", impl, "--n", str(args.n),
                "--report-dir", report, "--progress-every", "60", *extra])


def verdict_lines(out):
    """Every line but the power table's rows: where a test's name or a
    resolution in bits is a finding, not the table's "bits of resolution"."""
    return [line for line in out.splitlines() if not line.startswith("|")]


def rejects(args):
    expected_text = subprocess.run([args.table, "--rejected-by", args.drift], check=True,
                                   stdout=subprocess.PIPE, text=True).stdout.strip()
    expected = [name.strip() for name in expected_text.split(",") if name.strip()]
    expect(expected, f"{args.table} --rejected-by {args.drift} names nothing")
    impl = args.impl or shlex.join([args.table, args.drift])

    status, _ = run([args.retry_policy, "check", "--impl", impl, "--cases", str(args.check_cases)])
    expect(status == 0, f"check: exit {status}, expected 0 (the arithmetic is the core's)")

    status, out = stats(args, impl)
    expect(status == 1, f"stats: exit {status}, expected 1 (a test rejects)")
    lines = verdict_lines(out)
    expect(any(line.startswith("FAIL: ") for line in lines), "stats: no FAIL verdict")
    # "FAIL <cell>: rejected by <test>, <test>..."
    cells = [line for line in lines if re.match(r"FAIL \S+: ", line)]
    # Every rejected cell shows some of its values: the delays outside its
    # band, or its first delays; on the console and in the report's grid.
    for line in cells:
        expect("outside the band" in line or "first delays" in line,
               f"stats: a rejected cell shows none of its values: {line[:120]}")
    with open(os.path.join(args.work, "report", "summary.md"), encoding="utf-8") as f:
        rows = [row for row in f.read().splitlines() if row.startswith("| jittered/")
                or row.startswith("| next_delay/")]
    for row in rows:
        columns = row.split(" | ")
        if len(columns) > 4 and columns[4] != "none":
            expect("outside the band" in columns[2] or "first delays" in columns[2],
                   f"summary.md: a rejected cell shows none of its values: {row[:120]}")
    for name in expected:
        if name.startswith("fleet_"):
            said = [line for line in lines if line.strip().startswith(f"REJECTED {name}:")]
            expect(said, f"stats: the fleet is not rejected by {name}")
            print(f"{name}: {said[0].strip() if said else 'not rejected'}")
        elif " " in name:
            # Words of a verdict, the resolution's ("resolution B bits") or
            # its cause ("the draws sit on a 1 ms grid").
            said = [line for line in lines if name in line]
            expect(said, f"stats: the verdict does not say {name!r}")
            print(f"{name!r}: said on {len(said)} verdict line(s)")
        else:
            named = [line for line in cells if re.search(rf"\b{re.escape(name)}\b",
                                                         line.split(": ", 1)[1])]
            expect(named, f"stats: no cell is rejected by {name}")
            print(f"{name}: rejects {len(named)} of {len(cells)} failing cells")


def passes(args, extra):
    status, out = stats(args, args.impl, extra)
    expect(status == 0, f"stats: exit {status}, expected 0 (every cell passes)")
    expect(re.search(rf"^PASS: (\d+) of \1 cells pass at n {args.n} a cell", out, re.M),
           f"stats: not every cell passes at n {args.n}")
    for text in args.says:
        expect(any(text in line for line in verdict_lines(out)),
               f"stats: the verdict does not say {text!r}")
    if args.resolution:
        expect(any(re.search(r"\bresolution (more than )?\d+(\.\d+)? bits", line)
                   for line in verdict_lines(out)),
               "stats: no resolution verdict (\"resolution B bits\")")


def table(adapter, readme):
    printed = subprocess.run([adapter, "--table"], check=True, stdout=subprocess.PIPE,
                             text=True).stdout
    with open(readme, encoding="utf-8") as f:
        text = f.read()
    expect(printed in text,
           f"{readme} does not hold `{adapter} --table` as it prints it now:\n{printed}")


def main():
    argv = sys.argv[1:]
    if argv[:1] == ["table"] and len(argv) == 3:
        table(argv[1], argv[2])
        return finish()
    extra = []
    if "--" in argv:
        split = argv.index("--")
        argv, extra = argv[:split], argv[split + 1:]
    parser = argparse.ArgumentParser()
    parser.add_argument("mode", choices=["rejects", "passes"])
    parser.add_argument("retry_policy")
    parser.add_argument("work")
    parser.add_argument("--n", type=int, required=True)
    parser.add_argument("--impl")
    parser.add_argument("--table", help="drifted_adapter (rejects)")
    parser.add_argument("--drift", help="a drift of its table (rejects)")
    parser.add_argument("--check-cases", type=int, default=200)
    parser.add_argument("--says", action="append", default=[])
    parser.add_argument("--resolution", action="store_true",
                        help="(passes) the verdict states a resolution in bits")
    args = parser.parse_args(argv)
    if args.mode == "rejects" and not (args.table and args.drift):
        parser.error("rejects needs --table and --drift")
    if args.mode == "passes" and not args.impl:
        parser.error("passes needs --impl")
    os.makedirs(args.work, exist_ok=True)
    rejects(args) if args.mode == "rejects" else passes(args, extra)
    return finish()


if __name__ == "__main__":
    sys.exit(main())
