#!/usr/bin/env python3
"""`retry-policy schedule`: the table a person argues with, the JSON a machine
reads, the picture a maintainer looks at, and exit code 2 with one line on
stderr, in one style, for anything malformed.

The jittered ends of each row are the core's own answers, asked of
`retry-policy serve` (jittered at r = 0 and at the largest draw): this test
keeps no copy of the contract's arithmetic.

    schedule_cli_test.py RETRY_POLICY WORK_DIR
"""

import json
import math
import os
import re
import struct
import subprocess
import sys
import xml.etree.ElementTree as ElementTree

from assertions import expect, finish

LARGEST_DRAW = 1 - 2 ** -53


def run(rp, *args):
    return subprocess.run([rp, "schedule", *args], stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, timeout=60)


def number(x):
    return {"Infinity": math.inf, "-Infinity": -math.inf, "NaN": math.nan}.get(x, x)


def bits(x):
    return struct.unpack("<Q", struct.pack("<d", float(number(x))))[0]


def serve(rp, requests):
    lines = "\n".join(json.dumps(r) for r in requests) + "\n"
    out = subprocess.run([rp, "serve"], input=lines.encode(), stdout=subprocess.PIPE,
                         timeout=60).stdout.decode().splitlines()
    return [json.loads(line)["result"] for line in out]


def rows(table):
    """The numeric rows of the table, as lists of cells."""
    return [line.split() for line in table.splitlines()
            if line.strip() and line.split()[0].isdigit()]


def check_json_against_serve(rp, flags, policy):
    """--json's jitter ends are the core's jittered at r = 0 and 1 - 2^-53,
    and its waits are the running sums of those, in attempt order."""
    document = json.loads(run(rp, *flags, "--json").stdout)
    entries = document["entries"]
    delays = [e["delay"] for e in entries]
    asked = [{"op": "jittered", "policy": policy, "delay": d, "r": r}
             for d in delays for r in (0.0, LARGEST_DRAW)]
    answers = serve(rp, asked)
    waited = [0.0, 0.0, 0.0]
    for i, e in enumerate(entries):
        least, most = answers[2 * i], answers[2 * i + 1]
        expect(bits(e["jitter"]["least"]) == bits(least), f"{flags} row {i + 1}: least {e['jitter']}")
        expect(bits(e["jitter"]["most"]) == bits(most), f"{flags} row {i + 1}: most {e['jitter']}")
        waited = [waited[0] + number(least), waited[1] + number(e["delay"]), waited[2] + number(most)]
        expect([bits(e["waited"][k]) for k in ("least", "nominal", "most")] == [bits(w) for w in waited],
               f"{flags} row {i + 1}: waited {e['waited']}, running sums {waited}")
    return document


def check_table_rounds(rp, flags):
    """Each cell of the table is its --json value to 4 significant digits."""
    table = run(rp, *flags).stdout.decode()
    document = json.loads(run(rp, *flags, "--json").stdout)
    for row, entry in zip(rows(table), document["entries"]):
        exact = [entry["delay"], entry["jitter"]["least"], entry["jitter"]["most"],
                 entry["waited"]["least"], entry["waited"]["nominal"], entry["waited"]["most"]]
        for cell, value in zip(row[1:], exact):
            value = float(number(value))
            shown = float(number(cell))
            digits = len(re.sub(r"[^0-9]", "", cell.split("e")[0]).lstrip("0"))
            expect(digits <= 4, f"{flags}: cell {cell} has more than 4 significant digits")
            expect(shown == value or abs(shown - value) <= 5e-4 * abs(value),
                   f"{flags}: cell {cell} is not {value!r} rounded")
    return table


def check_svg(rp, work, svg_path):
    """The picture: well-formed SVG, with the marks the policy calls for."""
    tree = ElementTree.parse(svg_path)
    svg = "{http://www.w3.org/2000/svg}"
    texts = " ".join(t.text or "" for t in tree.iter(svg + "text"))
    expect(len(list(tree.iter(svg + "circle"))) == 3, "three age-limit crossings circled")
    expect(len([r for r in tree.iter(svg + "rect") if r.get("fill") == "#9ecae1"]) == 9,
           "a jitter band for each of the 9 rows")
    expect("max_message_age 60 s" in texts and
           "60 s old after the wait that follows attempt 7 (73.8 s), so attempt 8 is the last"
           in texts, f"the age limit drawn and explained: {texts[:300]}")
    # The circle sits on the wait the caption names: x of attempt 7 on the
    # waits' axis (the most's crossing), not of attempt 8.
    circles = sorted(float(c.get("cx")) for c in tree.iter(svg + "circle"))
    polylines = [p for p in tree.iter(svg + "polyline")]
    most = [p for p in polylines if p.get("stroke") == polylines[-3].get("stroke")][-1]
    xs = [float(pt.split(",")[0]) for pt in most.get("points").split()]
    expect(abs(circles[0] - xs[6]) < 0.01, f"the most's crossing circled at attempt 7: {circles} {xs[:9]}")
    raw = open(svg_path).read()
    expect("nan" not in raw.lower() and "inf" not in re.sub(r"Infinity", "", raw).lower(),
           "no NaN or inf coordinates")
    long_path = os.path.join(work, "overflow.svg")
    expect(run(rp, "--max-attempts", "1100", "--initial-delay", "1", "--svg", long_path).returncode == 0
           and "From attempt 1025 the delay overflows to +Infinity" in open(long_path).read(),
           "an overflow is drawn and said at the attempt the table shows it")
    # The band's top can overflow an attempt before the delay: 1.5e308 is
    # finite, 1.5e308 * 1.5 is not (the table shows both).
    jittered_path = os.path.join(work, "overflow-jitter.svg")
    expect(run(rp, "--max-attempts", "5", "--initial-delay", "1e308", "--multiplier", "1.5",
               "--jitter-factor", "0.5", "--svg", jittered_path).returncode == 0,
           "a jittered overflow is drawn")
    drawn = open(jittered_path).read()
    expect("From attempt 2 the top of the jitter range overflows to +Infinity" in drawn
           and "From attempt 3 the delay overflows to +Infinity" in drawn,
           "the band's top and the delay overflow at the attempts the table shows")
    empty = run(rp, "--max-attempts", "3", "--svg", "")
    expect(empty.returncode == 2 and b"--svg: needs a value" in empty.stderr,
           "an empty --svg is a usage error, not a run that writes nothing")


def main(rp, work):
    os.makedirs(work, exist_ok=True)
    exponential = ["--exponential", "--max-attempts", "10", "--initial-delay", "0.5",
                   "--max-delay", "30", "--max-message-age", "60"]
    table = run(rp, *exponential)
    text = table.stdout.decode()
    print(text)
    expect(table.returncode == 0, f"exponential table exit {table.returncode}")
    expect("jitter_factor: 0.2" in text, "the policy line shows the factory's jitter")
    check_json_against_serve(rp, exponential, {"factory": "exponential", "max_attempts": 10,
                                               "initial_delay": 0.5, "max_delay": 30,
                                               "give_up_after": 60})
    check_table_rounds(rp, exponential)
    # The footnote: which attempt is the last, for each column of waits.
    for line in ("if every wait is the most:   60 s old after the wait that follows attempt 7 "
                 "(73.8 s), so attempt 8 is the last",
                 "if every wait is nominal:    60 s old after the wait that follows attempt 7 "
                 "(61.5 s), so attempt 8 is the last",
                 "if every wait is the least:  60 s old after the wait that follows attempt 8 "
                 "(73.2 s), so attempt 9 is the last"):
        expect(line in text, f"footnote line missing: {line}")

    # People read 1.8, not 1.7999999999999998 (3 * 0.6 in binary64).
    creep = ["--max-attempts", "4", "--initial-delay", "3", "--multiplier", "0.6",
             "--jitter-factor", "0.4", "--max-message-age", "100"]
    creep_table = check_table_rounds(rp, creep)
    expect("1.7999999999999998" not in creep_table and rows(creep_table)[1][1] == "1.8",
           f"human rounding: {rows(creep_table)[1]}")
    expect("if every wait is the most:   only 8.232 s old at attempt 4, so max_attempts ends it"
           in creep_table, f"an age limit never reached says so: {creep_table}")
    check_json_against_serve(rp, creep, {"max_attempts": 4, "initial_delay": 3, "multiplier": 0.6,
                                         "jitter_factor": 0.4, "max_message_age": 100})

    # The cap applies to each entry, not the running value.
    capped = json.loads(run(rp, "--max-attempts", "6", "--initial-delay", "100", "--multiplier",
                            "0.5", "--max-delay", "30", "--json").stdout)
    expect([e["delay"] for e in capped["entries"]] == [30.0, 30.0, 25.0, 12.5, 6.25],
           f"capped delays: {capped['entries']}")

    # Overflow is the answer, printed as the protocol prints it.
    overflow = json.loads(run(rp, "--max-attempts", "1100", "--initial-delay", "1", "--json").stdout)
    expect(overflow["entries"][-1]["delay"] == "Infinity", "uncapped doubling overflows")
    expect(run(rp, "--none").returncode == 0, "--none works")
    fixed = json.loads(run(rp, "--fixed", "--max-attempts", "3", "--delay", "0.1", "--json").stdout)
    expect([e["delay"] for e in fixed["entries"]] == [0.1, 0.1], "--fixed with --delay")

    # Numbers read as JSON numbers are: one correct rounding (CLI11's own
    # reader, strtold then a cast, makes this 1.0), and underflow is 0.
    rounded = json.loads(run(rp, "--max-attempts", "2", "--initial-delay",
                             "1.00000000000000011102231", "--json").stdout)
    expect(rounded["entries"][0]["delay"] == 1.0000000000000002,
           f"--initial-delay read with one rounding: {rounded['entries'][0]['delay']!r}")
    tiny = run(rp, "--max-attempts", "2", "--initial-delay", "1e-400", "--json")
    expect(tiny.returncode == 0 and json.loads(tiny.stdout)["entries"][0]["delay"] == 0.0,
           "1e-400 underflows to 0, as in JSON")

    # The picture: well-formed SVG, with the marks the policy calls for.
    svg_path = os.path.join(work, "schedule.svg")
    drawn = run(rp, *exponential, "--svg", svg_path)
    expect(drawn.returncode == 0 and drawn.stdout.decode() == text,
           "--svg also prints the table, unchanged")
    expect(os.path.exists(svg_path), "--svg wrote no file")
    # The picture the docs show is this command's output, not a stale copy.
    example = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "docs", "schedule-example.svg")
    expect(os.path.exists(svg_path) and open(example).read() == open(svg_path).read(),
           "docs/schedule-example.svg is not what `retry-policy schedule "
           + " ".join(exponential) + " --svg` draws now: regenerate it with that command")
    if os.path.exists(svg_path):
        check_svg(rp, work, svg_path)

    # Usage errors: exit 2, one line on stderr in one style, nothing on stdout.
    style = re.compile(r"^retry-policy schedule: (--[a-z-]+|[^ :]+): [a-z0-9]")
    for bad, says in ((["--multiplier", "abc"], "--multiplier: not a number, got abc"),
                      (["--max-attempts", "2.5"], "--max-attempts: must be a whole number, got 2.5"),
                      (["--max-attempts", "0"], "--max-attempts: must be at least 1, got 0"),
                      (["--jitter-factor", "1.5"], "--jitter-factor: must be in [0, 1], got 1.5"),
                      (["--initial-delay", "-1"], "--initial-delay: must be finite and >= 0"),
                      (["--initial-delay", "NaN"], "--initial-delay: must be finite"),
                      (["--max-delay", "Infinity"], "--max-delay: must be finite"),
                      (["--initial-delay", "1e400"], "--initial-delay: out of range"),
                      (["--bogus"], "--bogus: not a flag of this command"),
                      (["--bogus", "value"], "--bogus: not a flag"),
                      (["--multiplier"], "--multiplier: needs a value"),
                      (["--exponential", "--max-attempts", "3", "--initial-delay", "1",
                        "--multiplier", "3"], "--multiplier: not taken by --exponential"),
                      (["--fixed", "--max-attempts", "3", "--delay", "1", "--max-delay", "3"],
                       "--max-delay: not taken by --fixed"),
                      (["--none", "--max-attempts", "3"], "--max-attempts: not taken by --none"),
                      (["--exponential", "--none"], "--exponential: cannot be used with --none"),
                      (["--fixed", "--max-attempts", "3"], "--fixed: needs --delay"),
                      (["--exponential", "--initial-delay", "1"], "--exponential: needs --max-attempts"),
                      (["--fixed", "--max-attempts", "3", "--delay", "-1"], "--delay: must be finite"),
                      (["--max-attempts", "1000000"], "--max-attempts: at most 65537"),
                      (["--max-attempts", "2", "--svg", "/nonexistent/dir/x.svg"],
                       "--svg: cannot write")):
        result = run(rp, *bad)
        err = result.stderr.decode()
        expect(result.returncode == 2, f"{bad}: exit {result.returncode}, expected 2")
        expect(says in err, f"{bad}: says {err!r}, expected {says!r}")
        expect(style.match(err) and err.count("\n") == 1, f"{bad}: not one line in style: {err!r}")
        expect(result.stdout == b"", f"{bad}: printed {result.stdout[:80]!r} on stdout")

    return finish()


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
