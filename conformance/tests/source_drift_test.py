#!/usr/bin/env python3
"""`retry-policy stats` end to end, at a chosen n: a wrong source rejected
for the right reason, a right one passed. What a run found is read from its
report's results.json.

    source_drift_test.py rejects RETRY_POLICY WORK_DIR --n N --table ADAPTER --drift DRIFT
                         [--impl COMMAND] [--check-cases C]
        `check --impl COMMAND --cases C` exits 0 (the arithmetic is right:
        check injects r, so it cannot see a source), and `stats --impl
        COMMAND --n N` exits 1 for what `ADAPTER --rejected-by DRIFT` says
        must reject it (drifted_adapter's table): each test's name rejects
        at least one cell (a cell the port's time unit can represent), each
        fleet test's rejects the fleet, and each finding in words
        ("resolution B bits", "the draws sit on a 1 ms grid") is held by
        results.json's fields (finding() reads them). Every rejected cell
        shows some of its values on the console and in summary.md. COMMAND
        is "ADAPTER DRIFT" unless given: give `retry-policy serve`, whose
        source is right, to see the test fail.

    source_drift_test.py passes RETRY_POLICY WORK_DIR --n N --impl COMMAND
                         [--finding WORDS]... [--field PATH=VALUE|PATH~TEXT]...
                         [--says TEXT]... [--resolution] [-- STATS_ARG...]
        `stats --impl COMMAND --n N STATS_ARG...` exits 0 and every cell
        passes at n N; results.json holds each finding (as for rejects) and
        each field (as expect_exit.py's --field); with --resolution, the
        source's resolution is read in bits (the rule was judged); the
        verdict's words say each TEXT.

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
from expect_exit import check_field
from stats_impl_test import bits_read, brief, forget_results, results


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
    """stats' exit code, its console output, and its results.json (None, a
    failure recorded, when the run wrote none)."""
    report = os.path.join(args.work, "report")
    forget_results(report)
    status, out = run([args.retry_policy, "stats", "--impl", impl, "--n", str(args.n),
                       "--report-dir", report, "--progress-every", "60", *extra])
    return status, out, results(report)


def verdict_lines(out):
    """Every line but the power table's rows: where a test's name or a
    resolution in bits is a finding, not the table's "bits of resolution"."""
    return [line for line in out.splitlines() if not line.startswith("|")]


def finding(data, phrase):
    """Whether results.json holds the finding PHRASE puts in words
    (drifted_adapter's table names findings so: "resolution B bits", "the
    draws sit on a 1 ms grid"); None for words no field of it reads."""
    resolution = data.get("resolution", {})
    bits = re.fullmatch(r"resolution (\d+(?:\.\d+)?) bits", phrase)
    if bits:
        return bits_read(resolution, bits.group(1))
    if phrase == "the source is stuck":
        return resolution.get("stuck") is True
    unit = re.fullmatch(r"the draws sit on a (.+) grid", phrase)
    if unit:
        return resolution.get("decimal_unit") == unit.group(1)
    if phrase == "cannot represent":
        return any(cell["failed"] and cell["unrepresentable"] for cell in data["cells"])
    return None


def rejected_by(cell, name):
    """Whether NAME (a test's, or "range") rejected the cell."""
    if name == "range":
        return not cell["range"]["ok"]
    return any(test["name"] == name and test["rejected"] for test in cell["tests"])


def rejects(args):
    expected_text = subprocess.run([args.table, "--rejected-by", args.drift], check=True,
                                   stdout=subprocess.PIPE, text=True).stdout.strip()
    expected = [name.strip() for name in expected_text.split(",") if name.strip()]
    expect(expected, f"{args.table} --rejected-by {args.drift} names nothing")
    impl = args.impl or shlex.join([args.table, args.drift])

    status, _ = run([args.retry_policy, "check", "--impl", impl, "--cases", str(args.check_cases)])
    expect(status == 0, f"check: exit {status}, expected 0 (the arithmetic is the core's)")

    status, out, data = stats(args, impl)
    expect(status == 1, f"stats: exit {status}, expected 1 (a test rejects)")
    if data is None:
        return
    expect(data["passed"] is False, "stats: results.json: the run passed")
    failed = [cell for cell in data["cells"] if cell["failed"]]
    # Cells a port's time unit cannot represent fail whatever its jitter:
    # a test's rejection counts only in the others.
    judged = [cell for cell in failed if cell["unrepresentable"] is None]
    for cell in failed:
        expect(cell["range"]["first_outside"] or cell["first_values"],
               f"stats: results.json: rejected cell {cell['name']} holds none of its values")
    # Every rejected cell shows some of its values, the delays outside its
    # band or its first delays, where a person reads it: its console line
    # and its row in the summary's grid.
    lines = verdict_lines(out)
    with open(os.path.join(args.work, "report", "summary.md"), encoding="utf-8") as f:
        rows = [row.split(" | ") for row in f.read().splitlines() if row.startswith("| ")]
    for cell in failed:
        name = cell["name"]
        if cell["unrepresentable"] is None:
            said = [line for line in lines if line.startswith(f"FAIL {name}: ")]
            expect(said and ("outside the band" in said[0] or "first delays" in said[0]),
                   f"stats: rejected cell {name} shows none of its values: {said[:1]}")
        # A row's columns: the cell (with why a port's unit cannot represent
        # it, if so), d, range, smallest p, rejected by, pictures.
        ranges = [columns[2] for columns in rows if len(columns) > 4 and (
            columns[0] == f"| {name}" or columns[0].startswith(f"| {name} ("))]
        expect(ranges and ("outside the band" in ranges[0] or "first delays" in ranges[0]),
               f"summary.md: rejected cell {name} shows none of its values: {ranges[:1]}")
    resolution = data.get("resolution", {})
    fleet_tests = {test["name"]: test for test in data.get("fleet", {}).get("tests", [])}
    for name in expected:
        if name.startswith("fleet_"):
            test = fleet_tests.get(name, {})
            expect(test.get("rejected") is True, f"stats: the fleet is not rejected by {name}")
            print(f"{name}: {test.get('finding', 'not in results.json')}")
        elif " " in name:
            # Words of a finding: the resolution's ("resolution B bits") or
            # its cause ("the draws sit on a 1 ms grid").
            holds = finding(data, name)
            if holds is None:
                fail(f"no field of results.json reads {name!r}: teach finding() to")
                continue
            expect(holds, f"stats: results.json does not hold {name!r}: {brief(resolution)}")
            if name.startswith("resolution "):
                expect(resolution.get("rejected") is True,
                       f"stats: results.json: the resolution does not reject: {brief(resolution)}")
            print(f"{name!r}: held by results.json")
        else:
            named = [cell for cell in judged if rejected_by(cell, name)]
            expect(named, f"stats: no cell is rejected by {name}")
            print(f"{name}: rejects {len(named)} of {len(judged)} failing cells")


def passes(args, extra):
    status, out, data = stats(args, args.impl, extra)
    expect(status == 0, f"stats: exit {status}, expected 0 (every cell passes)")
    if data is not None:
        cells = data["cells"]
        expect(data["passed"] is True and "stopped_by" not in data,
               f"stats: results.json: the run did not pass, or stopped: "
               f"{data.get('stopped_by')!r}")
        failed = [cell["name"] for cell in cells if cell["failed"]]
        expect(cells and not failed, f"stats: results.json: cells fail: {failed}")
        expect(data["n_per_cell"] == args.n and all(cell["n"] == args.n for cell in cells),
               f"stats: results.json: not n {args.n} in every cell")
        for phrase in args.finding:
            holds = finding(data, phrase)
            if holds is None:
                fail(f"no field of results.json reads {phrase!r}: teach finding() to")
            else:
                expect(holds, f"stats: results.json does not hold {phrase!r}: "
                              f"{brief(data.get('resolution', {}))}")
        for field in args.field:
            check_field(data, field)
        if args.resolution:
            # The rule judged: a resolution read in bits, and not rejected.
            resolution = data.get("resolution", {})
            expect(isinstance(resolution.get("bits"), (int, float))
                   and resolution.get("rejected") is False,
                   f"stats: results.json: no resolution read in bits, or rejected: "
                   f"{brief(resolution)}")
    # Words a person reads, which no field holds as data.
    for text in args.says:
        expect(any(text in line for line in verdict_lines(out)),
               f"stats: the verdict does not say {text!r}")


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
    parser.add_argument("--says", action="append", default=[],
                        help="(passes) words the verdict says")
    parser.add_argument("--finding", action="append", default=[],
                        help="(passes) a finding results.json holds, in the table's words")
    parser.add_argument("--field", action="append", default=[],
                        help="(passes) PATH=VALUE or PATH~TEXT in results.json")
    parser.add_argument("--resolution", action="store_true",
                        help="(passes) a resolution read in bits: the rule was judged")
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
