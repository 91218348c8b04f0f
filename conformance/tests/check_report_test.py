#!/usr/bin/env python3
"""`retry-policy check`'s report, as a port's author reads it.

- A failing run shows distinct smallest requests: two mismatches that shrink
  to the same request (ids aside, the policy as the core reads it) are
  shown once, and the others say which one they repeat.
- A passing run says what it covered: every regime, every numeric id and
  every invalid-input rule, with a count, at a fixed seed; a rule, regime or
  id the generator stops reaching fails here. The generator is under test,
  not a port, so the core's own `serve` answers (2 s where the Python port
  takes 14: check.python already runs the port on 5000 cases).
- A run too small to reach everything says what it did not reach.

    check_report_test.py RETRY_POLICY PYTHON PORT_DIR TEST_ADAPTERS_DIR
"""

import json
import re
import shlex
import subprocess
import sys

failures = []


def check(rp, *args):
    run = subprocess.run([rp, "check", *args], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                         timeout=600)
    return run.returncode, run.stdout.decode("utf-8", "replace")


def expect(condition, message):
    if not condition:
        failures.append(message)


def shrunk_requests(report):
    """The smallest request of each fully shown mismatch, without its id."""
    lines = report.splitlines()
    out = []
    for i, line in enumerate(lines):
        if line.startswith("  shrunk in ") and i + 1 < len(lines):
            request = json.loads(lines[i + 1].split("request:", 1)[1])
            request.pop("id", None)
            out.append(json.dumps(request, sort_keys=True))
    return out


def main(rp, python, port, test_adapters):
    py, drifted = shlex.quote(python), shlex.quote(f"{test_adapters}/drifted.py")
    adapter = f"{py} {shlex.quote(port + '/adapter.py')}"

    # Seed 5 makes several mismatches that shrink to one request within its
    # first 500 cases (8 shrunk, to 3 distinct), a tenth of a default run.
    code, report = check(rp, "--no-vectors", "--cases", "500", "--seed", "5", "--show", "3",
                         "--impl", f"{py} {drifted} draw-on-null")
    print(report[-3000:])
    expect(code == 1, f"drifted port: exit {code}, expected 1")
    shown = shrunk_requests(report)
    expect(len(shown) == len(set(shown)), f"the same smallest request shown twice: {shown}")
    expect("MISMATCH #3" in report, "three distinct mismatches shown")
    expect("shrinks to the same request as mismatch #" in report,
           "a repeated mismatch says which one it repeats")
    expect(re.search(r"\(\d+ shrunk, to 3 distinct smallest requests\)", report),
           "the verdict counts the distinct requests")

    code, report = check(rp, "--no-vectors", "--seed", "20261201", "--impl",
                         f"{shlex.quote(rp)} serve")
    print(report[-6000:])
    expect(code == 0, f"the core's serve: exit {code}, expected 0")
    reached = report.split("What the agreeing answers reached", 1)[-1]
    rows = re.findall(r"^ +(\d+)  (.+)$", reached, re.M)
    expect(len(rows) >= 50, f"{len(rows)} rows of coverage: expected 13 regimes and 40 rules")
    for count, name in rows:
        expect(int(count) > 0, f"not reached in 5000 cases at seed 20261201: {name}")
    for regime in ("capped", "multiplier below 1", "-0.0", "overflow", "subnormal",
                   "message age at max_message_age", "huge attempt", "replay with skipped draws",
                   "within 2^-40 of 1", "with an age limit on a walk", "settles at 2^20"):
        expect(any(regime in name for _, name in rows), f"no row for {regime}")
    for number in ("9007199254740993 (2^53 + 1)", "9223372036854775807 (int64 max)",
                   "18446744073709551616 (2^64)", "-0.0 (negative zero)", "5e-324 ("):
        expect(any(name.startswith(number) for _, name in rows), f"no row for the id {number}")

    code, report = check(rp, "--no-vectors", "--cases", "20", "--seed", "3", "--impl", adapter)
    expect(code == 0 and "<- NOT REACHED" in report,
           "a run of 20 cases says what it did not reach")

    for failure in failures:
        print("FAIL:", failure)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
