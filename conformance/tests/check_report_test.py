#!/usr/bin/env python3
"""`retry-policy check`'s report, as a port's author (and a program, through
`--json`) reads it: the assertions read the JSON report, and hold the
console's counts to it.

- A failing run shows distinct smallest requests: two mismatches that shrink
  to the same request (ids aside, the policy as the core reads it) are
  shown once, and the others say which one they repeat.
- A passing run says what it covered: every regime, every numeric id and
  every invalid-input rule, with a count, at a fixed seed; a rule, regime or
  id the generator stops reaching fails here. The generator is under test,
  not a port, so the core's own `serve` answers (2 s where the Python port
  takes 14: check.python already runs the port on 5000 cases).
- A run too small to reach everything says what it did not reach.
- A burst whose answers would fill the pipe back is sent a line at a time,
  and the report counts it (`burst`, a test of its own: 3,592 cases through
  the Python port, whose time is Python's, so the asan preset leaves it out).

    check_report_test.py RETRY_POLICY PYTHON PORT_DIR TEST_ADAPTERS_DIR [report|burst]
"""

import json
import os
import shlex
import subprocess
import sys
import tempfile

from assertions import expect, finish


def check(rp, *args):
    """check's exit code, its console report, and its JSON report (--json)."""
    with tempfile.TemporaryDirectory() as work:
        report_file = os.path.join(work, "report.json")
        run = subprocess.run([rp, "check", "--json", report_file, *args], stdout=subprocess.PIPE,
                             stderr=subprocess.STDOUT, timeout=600)
        with open(report_file, encoding="utf-8") as f:
            report = json.load(f)
    return run.returncode, run.stdout.decode("utf-8", "replace"), report


def main(rp, python, port, test_adapters, part="report"):
    py, drifted = shlex.quote(python), shlex.quote(f"{test_adapters}/drifted.py")
    adapter = f"{py} {shlex.quote(port + '/adapter.py')}"
    if part == "burst":
        return burst(rp, adapter)
    if part != "report":
        sys.exit(f"check_report_test.py: unknown part {part!r} (report, burst)")

    # Seed 5 makes several mismatches that shrink to one request within its
    # first 500 cases (8 shrunk, to 3 distinct), a tenth of a default run.
    code, console, report = check(rp, "--no-vectors", "--cases", "500", "--seed", "5", "--show",
                                  "3", "--impl", f"{py} {drifted} draw-on-null")
    print(console[-3000:])
    expect(code == 1 and report["exit_code"] == 1 and report["verdict"] == "different",
           f"drifted port: exit {code}, verdict {report['verdict']}, expected 1, different")
    shrunk = [m for m in report["mismatches"] if m["shrunk"]]
    smallest = [json.dumps({k: v for k, v in json.loads(m["shrunk"]["request"]).items()
                            if k != "id"}, sort_keys=True) for m in shrunk]
    expect(len(smallest) == len(set(smallest)), f"the same smallest request shown twice: {smallest}")
    expect(len(shrunk) == 3 == report["distinct_smallest_requests"],
           "three distinct mismatches shown, shrunk")
    repeats = [m for m in report["mismatches"] if m["same_as"] is not None]
    expect(repeats and all(1 <= m["same_as"] <= 3 for m in repeats),
           "a repeated mismatch says which one it repeats")
    expect(report["shrunk"] == len(shrunk) + len(repeats),
           f"{report['shrunk']} shrunk: every shrunk mismatch is shown or repeats one")
    expect(f"({report['shrunk']} shrunk, to 3 distinct smallest requests)" in console,
           "the console's verdict counts what the JSON report counts")

    code, console, report = check(rp, "--no-vectors", "--seed", "20261201", "--impl",
                                  f"{shlex.quote(rp)} serve")
    print(console[-6000:])
    expect(code == 0 and report["verdict"] == "agree", f"the core's serve: exit {code}, expected 0")
    coverage = report["coverage"]
    rows = [row for table in coverage.values() for row in table]
    expect(len(rows) >= 50, f"{len(rows)} rows of coverage: expected regimes, ids and rules")
    for row in rows:
        expect(row["count"] > 0, f"not reached in 5000 cases at seed 20261201: {row['name']}")
    for rule in coverage["invalid_rules"]:
        expect(rule["variants_reached"] == rule["variants"] > 0,
               f"{rule['name']}: {rule['variants_reached']} of {rule['variants']} variants sent")
    regimes = [row["name"] for row in coverage["regimes"]]
    for regime in ("capped", "multiplier below 1", "-0.0", "overflow", "subnormal",
                   "message age at max_message_age", "huge attempt", "replay with skipped draws",
                   "within 2^-40 of 1", "with an age limit on a walk", "settles at 2^20",
                   "last word of an MT19937 refill", "past MT19937's first refill"):
        expect(any(regime in name for name in regimes), f"no row for {regime}")
    ids = [row["name"] for row in coverage["numeric_ids"]]
    for number in ("2^53 + 1", "int64 max", "2^64", "negative zero", "the least subnormal"):
        expect(number in ids, f"no row for the id {number}")

    code, console, report = check(rp, "--no-vectors", "--cases", "20", "--seed", "3", "--impl",
                                  adapter)
    expect(code == 0 and any(row["count"] == 0 for row in report["coverage"]["regimes"]),
           "a run of 20 cases counts what it did not reach")
    expect("<- NOT REACHED" in console, "and the console says so")
    return finish()


def burst(rp, adapter):
    # A burst whose answers would fill the pipe back goes a line at a time.
    # At this seed the burst at case 3584 answers 69 KiB before its last
    # line (two long schedules); written at once, the Python port, which
    # reads a line only after answering the one before, blocked writing
    # them while check waited for it to read the rest: no answer in 10 s.
    # Only the Python port's lazy reading shows it, so it answers here. With
    # the bound lifted the deadlock comes or not with timing (check may still
    # exit 0), so the count of bursts held back is what fails every time.
    code, console, report = check(rp, "--no-vectors", "--cases", "3592", "--seed",
                                  "10097254306515279761", "--impl", adapter)
    print(console[-1500:])
    expect(code == 0, f"a burst with 69 KiB of answers: exit {code}, expected 0")
    expect(report["bursts"]["answers_too_long"] >= 1,
           f"bursts {report['bursts']}: this seed no longer sends a burst whose answers pass "
           "16 KiB; find one that does (its answers past 64 KiB)")
    expect(report["bursts"]["at_once"] >= 20, f"bursts {report['bursts']}: most go at once")

    return finish()


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
