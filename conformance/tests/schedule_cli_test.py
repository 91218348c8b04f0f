#!/usr/bin/env python3
"""`retry-policy schedule`: the table a person argues with, the JSON a machine
reads, and exit code 2 with a message on stderr for anything malformed.

    schedule_cli_test.py RETRY_POLICY
"""

import json
import subprocess
import sys

failures = []


def run(retry_policy, *args):
    return subprocess.run([retry_policy, "schedule", *args], stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, timeout=60)


def expect(condition, message):
    if not condition:
        failures.append(message)


def rows(table):
    """The numeric rows of the table, as lists of cells."""
    return [line.split() for line in table.splitlines()
            if line.strip() and line.split()[0].isdigit()]


def expected_rows(delays, f):
    """The table's cells, worked out independently in Python's binary64:
    least is the contract's jitter at r = 0, most is d(1 + f), and the waits
    are running sums in attempt order."""
    out, waited = [], [0.0, 0.0, 0.0]
    for k, d in enumerate(delays, 1):
        least, most = d * (1 + (((0.0 * 2) - 1) * f)), d * (1 + f)
        waited = [waited[0] + least, waited[1] + d, waited[2] + most]
        out.append([str(k)] + [repr(x) for x in (d, least, most, *waited)])
    return out


def main(rp):
    # exponential(5, 0.5, 3.0): the doc page's own example, and its 20% jitter.
    table = run(rp, "--exponential", "--max-attempts", "5", "--initial-delay", "0.5",
                "--max-delay", "3")
    text = table.stdout.decode()
    print(text)
    expect(table.returncode == 0, f"exponential table exit {table.returncode}")
    expect("jitter_factor: 0.2" in text, "the policy line shows the factory's jitter")
    expect(rows(text) == expected_rows([0.5, 1.0, 2.0, 3.0], 0.2),
           f"exponential rows: {rows(text)}, expected {expected_rows([0.5, 1.0, 2.0, 3.0], 0.2)}")
    expect(rows(text)[3][3] == "3.5999999999999996", "3 * 1.2 is not 3.6 in binary64")

    # The cap applies to each entry, not the running value (the reference's
    # measured fact), and the age limit is explained in attempts.
    capped = run(rp, "--max-attempts", "6", "--initial-delay", "100", "--multiplier", "0.5",
                 "--max-delay", "30", "--max-message-age", "60", "--json")
    expect(capped.returncode == 0, f"capped --json exit {capped.returncode}")
    document = json.loads(capped.stdout)
    expect([e["delay"] for e in document["entries"]] == [30.0, 30.0, 25.0, 12.5, 6.25],
           f"capped delays: {capped.stdout[:300]!r}")
    expect(document["policy"]["max_message_age"] == 60.0, "policy echoed in JSON")
    expect([e["waited"]["nominal"] for e in document["entries"]] == [30.0, 60.0, 85.0, 97.5, 103.75],
           "cumulative nominal waits")
    expect(all(e["jitter"] == {"least": e["delay"], "most": e["delay"]} for e in document["entries"]),
           "no jitter means a range of one point")
    aged = run(rp, "--max-attempts", "6", "--initial-delay", "100", "--multiplier", "0.5",
               "--max-delay", "30", "--max-message-age", "60").stdout.decode()
    expect("after attempt 3 if nominal" in aged, f"age limit explained: {aged}")

    # Overflow is the answer, printed as the protocol prints it.
    overflow = json.loads(run(rp, "--max-attempts", "1100", "--initial-delay", "1", "--json").stdout)
    expect(overflow["entries"][-1]["delay"] == "Infinity", "uncapped doubling overflows")
    expect(run(rp, "--none").returncode == 0, "--none works")
    fixed = json.loads(run(rp, "--fixed", "--max-attempts", "3", "--delay", "0.1", "--json").stdout)
    expect([e["delay"] for e in fixed["entries"]] == [0.1, 0.1], "--fixed with --delay")

    # One correct rounding of the flag's text: CLI11's own reader (strtold,
    # then a cast) turns this into 1.0.
    rounded = json.loads(run(rp, "--max-attempts", "2", "--initial-delay",
                             "1.00000000000000011102231", "--json").stdout)
    expect(rounded["entries"][0]["delay"] == 1.0000000000000002,
           f"--initial-delay read with one rounding: {rounded['entries'][0]['delay']!r}")

    # Usage errors: exit 2, a message on stderr, nothing on stdout.
    for bad in (["--multiplier", "abc"], ["--max-attempts", "2.5"], ["--max-attempts", "0"],
                ["--jitter-factor", "1.5"], ["--initial-delay", "-1"], ["--initial-delay", "NaN"],
                ["--max-delay", "Infinity"], ["--bogus"], ["--exponential", "--multiplier", "3"],
                ["--fixed", "--max-delay", "3"], ["--none", "--max-attempts", "3"],
                ["--exponential", "--none"], ["--max-attempts", "1000000"],
                ["--initial-delay", "1e400"], ["--multiplier"]):
        result = run(rp, *bad)
        expect(result.returncode == 2, f"{bad}: exit {result.returncode}, expected 2")
        expect(result.stderr.strip() != b"", f"{bad}: no message on stderr")
        expect(result.stdout == b"", f"{bad}: printed {result.stdout[:80]!r} on stdout")

    for failure in failures:
        print("FAIL:", failure)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
