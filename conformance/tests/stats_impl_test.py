#!/usr/bin/env python3
"""`retry-policy stats --impl`: the battery on a port's own default source.

    stats_impl_test.py pass RETRY_POLICY ADAPTER_COMMAND WORK_DIR
        a good port: exit 0, every cell, the resolution and the fleet
        passed, the power table, the report, no seed
    stats_impl_test.py least-n RETRY_POLICY ADAPTER_COMMAND WORK_DIR
        the same good port at the battery's least n (10240): exit 0, every
        cell, the fleet, the report and its pictures; the C++ of a passing
        run at a sixth of a second, which the sanitizer presets run instead
        of `pass`
    stats_impl_test.py drifted RETRY_POLICY ADAPTER_COMMAND WORK_DIR
        a port with the right arithmetic and a wrong default source: `check`
        exits 0 (it injects r) and `stats --quick` exits 1
    stats_impl_test.py resolution RETRY_POLICY ADAPTER_COMMAND WORK_DIR BITS
        a port whose default source has too few bits (on a binary grid or
        not, repeating or full-period): `check` exits 0, `stats --quick`
        exits 1, the resolution rejected at BITS bits ("32" read exactly off
        a binary grid, "31.0" estimated), its verdict "resolution BITS bits,
        below the contract's 53 (docs/contract.md §5)"
    stats_impl_test.py accepted RETRY_POLICY ADAPTER_COMMAND WORK_DIR MIN_BITS BITS
        the same port accepted knowingly: `stats --quick --min-bits MIN_BITS`
        exits 0, its verdict "accepted at --min-bits MIN_BITS (below the
        contract's 53)"
    stats_impl_test.py fails RETRY_POLICY PYTHON WORK_DIR
        usage errors and adapters that die, hang or answer garbage: exit 2
    stats_impl_test.py hostile RETRY_POLICY PYTHON WORK_DIR
        adapters whose answers are no uniform jitter at all (outside the
        band, NaN, infinite): exit 1 with the first values shown and every
        cell out of range; an error after some cells: the cell named, the
        cells drawn judged and reported, exit 2; answers of ~63 MB (objects,
        an error, an id): exit 2, the adapter's words clipped, peak RSS at
        most 256 MB
    stats_impl_test.py fake MODE
        (used by `fails` and `hostile`) a broken adapter, one MODE a way to break

Every run but least-n's is `--quick`, the size the README promises fits a port's CI. What
a run found is read from its report's results.json; the console and
summary.md are read only for words a person reads (each such place says so).
"""

import json
import math
import os
import random
import re
import shlex
import subprocess
import sys
import tempfile
import time

from assertions import expect, fail, finish

# The most RSS `stats` may reach, whatever an adapter writes (its line cap
# is 64 MiB: conformance/process/adapter_process.hpp).
MAX_RSS_KB = 256 * 1024
# How far stdout may run, whatever an adapter writes: its words are clipped
# to 200 bytes an echo (port_stats/echo.hpp, kEchoBytes).
MAX_ECHOED_OUTPUT = 20000
last_run = {}
# --quick's draws a cell, and the least --n takes.
QUICK_N = 1 << 19
LEAST_N = 10240


def run(rp, args, timeout=600):
    """Runs retry-policy; records its wall time and peak RSS (wait4: its own,
    and the adapters it reaped) in last_run."""
    started = time.monotonic()
    with tempfile.TemporaryFile() as out_file, tempfile.TemporaryFile() as err_file:
        child = subprocess.Popen([rp, *args], stdout=out_file, stderr=err_file)
        deadline = started + timeout
        while True:
            pid, status, usage = os.wait4(child.pid, os.WNOHANG)
            if pid != 0:
                break
            if time.monotonic() > deadline:
                child.kill()
                os.wait4(child.pid, 0)
                fail(f"{args}: still running after {timeout} s")
                return None, "", ""
            time.sleep(0.05)
        child.returncode = os.waitstatus_to_exitcode(status)
        out_file.seek(0)
        err_file.seek(0)
        out = out_file.read().decode("utf-8", "replace")
        err = err_file.read().decode("utf-8", "replace")
    last_run.update(seconds=time.monotonic() - started, max_rss_kb=usage.ru_maxrss)
    print(f"--- retry-policy {' '.join(args)} -> {child.returncode} "
          f"in {last_run['seconds']:.1f} s, peak RSS {usage.ru_maxrss // 1024} MB")
    print(out[-6000:])
    print(err[-1500:])
    return child.returncode, out, err


def stats(rp, adapter, work, code, *extra):
    report = os.path.join(work, "report")
    forget_results(report)
    status, out, err = run(rp, ["stats", "--impl", adapter, "--quick", "--report-dir", report,
                                "--progress-every", "5", *extra])
    expect(status == code, f"stats --impl {adapter}: exit {status}, expected {code}")
    return status, out, err, report


def forget_results(report):
    """Removes the results.json an earlier run left, so that it cannot stand
    in for the next run's."""
    path = os.path.join(report, "results.json")
    if os.path.exists(path):
        os.remove(path)


def results(report):
    """The run's results.json, as data; None (a failure recorded) when the
    run wrote none."""
    path = os.path.join(report, "results.json")
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    except (OSError, ValueError) as e:
        fail(f"no results.json to read ({path}): {e}")
        return None


def brief(resolution):
    """The resolution's fields a failure message needs."""
    keys = ("bits", "exact", "rejected", "min_bits", "stuck", "decimal_unit", "verdict")
    return {key: resolution.get(key) for key in keys}


def bits_read(resolution, bits):
    """Whether the resolution read BITS as the verdict prints it: "32" on a
    binary grid (exact), "31.0" estimated (to the tenth it prints)."""
    value = resolution.get("bits")
    if not isinstance(value, (int, float)):
        return False
    if "." in bits:
        return resolution.get("exact") is False and abs(value - float(bits)) <= 0.05
    return resolution.get("exact") is True and value == int(bits)


def rejected_anything(data):
    """Whether some cell, the resolution or the fleet rejected the source."""
    return (any(cell["failed"] for cell in data["cells"])
            or data.get("resolution", {}).get("rejected") is True
            or data.get("fleet", {}).get("failed") is True)


def progress_lines(err):
    return [line for line in err.splitlines() if re.match(r"\[ *\d+/\d+ cells\]", line)]


def test_pass(rp, adapter, work):
    status, out, err, report = stats(rp, adapter, work, 0)
    data = results(report)
    if data is not None:
        expect_passed(data, adapter, report)
        # The resolution's sentence is what a person reads on the last line.
        verdict = data.get("resolution", {}).get("verdict", "no verdict in results.json")
        summary_line = [line for line in out.splitlines() if line.startswith("PASS: ")]
        expect(summary_line and verdict in summary_line[-1],
               f"the summary line does not say {verdict!r}")
    # The progress is the console's alone: a line every 5 s and one at the
    # end, not one a cell.
    lines = progress_lines(err)
    expect(lines and "[34/34 cells]" in lines[-1], "no final progress line on stderr")
    most = int(last_run.get("seconds", 0) / 5) + 2
    expect(len(lines) <= most,
           f"{len(lines)} progress lines in {last_run.get('seconds', 0):.0f} s at one every 5 s "
           f"(at most {most})")
    # The rate is the console's; results.json has the run's wall time, and
    # the cells' own seconds, summed.
    expect("draws/s" in out, "the output does not give the draws a second")
    if data is not None:
        wall = data.get("wall_seconds")
        expect(isinstance(wall, (int, float)) and 0 < wall <= last_run.get("seconds", 0) + 1,
               f"results.json: wall_seconds {wall!r}, the run took "
               f"{last_run.get('seconds', 0):.1f} s")
        expect(data.get("warnings") == [], f"results.json: warnings at --quick: {data.get('warnings')}")
    summary = os.path.join(report, "summary.md")
    if expect(os.path.exists(summary), "no summary.md"):
        with open(summary, encoding="utf-8") as f:
            text = f.read()
        # The words a person reads: results.json says it by a null seed.
        expect("cannot be replayed" in text, "the summary does not say the run cannot be replayed")
        expect("Seed:" not in text, "the summary shows a seed")


def test_least_n(rp, adapter, work):
    report = os.path.join(work, "report")
    forget_results(report)
    status, _, _ = run(rp, ["stats", "--impl", adapter, "--n", str(LEAST_N), "--report-dir", report])
    expect(status == 0, f"stats --impl {adapter} --n {LEAST_N}: exit {status}, expected 0")
    data = results(report)
    if data is not None:
        cells = data["cells"]
        expect(data["passed"] is True and data.get("exit_code") == 0,
               f"results.json: passed {data['passed']}, exit_code {data.get('exit_code')!r}")
        expect(len(cells) == 33 and all(cell["n"] == LEAST_N and not cell["failed"] for cell in cells),
               f"results.json: not 33 passing cells of n {LEAST_N}")
    expect(os.path.exists(os.path.join(report, "summary.md")), "no summary.md")
    svg = os.path.join(report, "svg")
    expect(os.path.isdir(svg) and any(name.endswith(".svg") for name in os.listdir(svg)),
           "no pictures in the report's svg/")


def expect_passed(data, adapter, report):
    cells = data["cells"]
    expect(data["passed"] is True, "results.json: the run did not pass")
    expect(data.get("outcome") == "passed" and data.get("exit_code") == 0,
           f"results.json: outcome {data.get('outcome')!r}, exit_code {data.get('exit_code')!r}")
    expect("stopped_by" not in data, f"results.json: stopped by {data.get('stopped_by')!r}")
    # The 32 cells of the grid and the threads cell.
    expect(len(cells) == 33, f"results.json: {len(cells)} cells, not 33")
    failed = [cell["name"] for cell in cells if cell["failed"]]
    expect(not failed, f"results.json: cells fail: {failed}")
    expect(data["n_per_cell"] == QUICK_N and all(cell["n"] == QUICK_N for cell in cells),
           f"results.json: not n {QUICK_N} in every cell")
    expect(data["family_alpha"] == 1e-6 and data["family_size"] == 300,
           f"results.json: family-wise alpha {data['family_alpha']} over {data['family_size']} "
           f"tests, expected 1e-06 over 300")
    # The power table has a row for each test the cells ran, and the resolution's.
    rows = {row["test"]: row for row in data["power"]}
    tests = {test["name"] for cell in cells for test in cell["tests"]}
    expect(set(rows) == tests | {"resolution"} and "repeats_2^40" in rows,
           f"results.json: power rows {sorted(rows)} against the tests {sorted(tests)}")
    expect(all(row["n"] == QUICK_N for row in rows.values()),
           f"results.json: a power row is not at n {QUICK_N}")
    expect(data["seed"] is None and data["replay"] is None
           and all(cell["seed"] is None for cell in cells),
           "results.json has a seed, yet the port's own source is not replayable")
    expect(adapter in data["unseeded_source"],
           f"results.json: the source is {data['unseeded_source']!r}, not the adapter's")
    fleet = data.get("fleet", {})
    expect(fleet.get("processes") == 16 and fleet.get("draws_each") == 64,
           f"results.json: the fleet is not 16 processes of 64 draws: {fleet}")
    expect(fleet.get("failed") is False and fleet.get("outside") == 0
           and not any(test["rejected"] for test in fleet.get("tests", [])),
           f"results.json: the fleet does not draw apart: {fleet}")
    resolution = data.get("resolution", {})
    expect(resolution.get("rejected") is False
           and resolution.get("min_bits") == resolution.get("contract_bits") == 53,
           f"results.json: the resolution is rejected, or not judged at 53 bits: "
           f"{brief(resolution)}")
    # The rule met: 53 bits read off the grid (Python, Java, .NET, the core),
    # or, for draws finer than the 2^-53 grid (Go's Float64 is Int63/2^63),
    # no coarser grid at all up to the spacing test's certain bits.
    expect((resolution.get("exact") is True and resolution.get("bits") == 53)
           or (resolution.get("exact") is False and resolution.get("dyadic_bits", 0) > 53),
           f"results.json: the resolution does not meet the contract's 53: {brief(resolution)}")
    # --quick sees a 32-bit source on no binary grid.
    expect(resolution.get("spacing_certain_bits", 0) >= 32,
           f"results.json: at --quick the spacing test is certain only to "
           f"{resolution.get('spacing_certain_bits')} bits, too few to see a 32-bit source")
    # The resolution's sentence, as a person reads it.
    met = (r"resolution (53 bits: meets the contract's 53|more than \d+\.\d bits: on no binary grid "
           r"coarser than 2\^-53, nor any grid coarser than 2\^-\d+\.\d) \(docs/contract\.md §5\)")
    expect(re.fullmatch(met, resolution.get("verdict", "")),
           f"the resolution's verdict does not say it meets the contract's 53: "
           f"{resolution.get('verdict')!r}")
    svg = ([cell["ecdf_svg"] for cell in cells] + [cell["histogram_svg"] for cell in cells]
           + [fleet.get("svg", "no fleet picture")])
    missing = [p for p in svg if not os.path.exists(os.path.join(report, p))]
    expect(not missing, f"pictures missing: {missing}")
def test_drifted(rp, adapter, work):
    status, out, _ = run(rp, ["check", "--impl", adapter, "--cases", "2000"])
    expect(status == 0,
           f"check --impl {adapter}: exit {status}, expected 0 (the arithmetic is right)")
    _, out, _, report = stats(rp, adapter, work, 1)
    data = results(report)
    if data is not None:
        expect(data["passed"] is False, "results.json: the run passed")
        expect(rejected_anything(data), "results.json: no cell, resolution or fleet rejects")
    # The tally is the console's one line for a person; what it counts,
    # each cell's rejections, is checked above.
    expect("\nRejected: " in out, "a failing run does not end in a tally of what rejected")
    return out, report, data


def test_resolution(rp, adapter, work, bits):
    out, report, data = test_drifted(rp, adapter, work)
    if data is None:
        return
    resolution = data.get("resolution", {})
    expect(resolution.get("rejected") is True and resolution.get("min_bits") == 53,
           f"results.json: the resolution is not rejected at 53 bits: {brief(resolution)}")
    expect(bits_read(resolution, bits),
           f"results.json: the resolution read {resolution.get('bits')} bits "
           f"(exact {resolution.get('exact')}), expected {bits}")
    # The sentence a person reads, on the console's last line and in the summary.
    verdict = f"resolution {bits} bits, below the contract's 53 (docs/contract.md §5)"
    expect(resolution.get("verdict") == verdict,
           f"results.json: the resolution's verdict is {resolution.get('verdict')!r}, "
           f"expected {verdict!r}")
    summary_line = [line for line in out.splitlines() if line.startswith("FAIL: ")]
    expect(summary_line and verdict in summary_line[-1],
           "the summary line does not name the resolution")
    expect_in_file(os.path.join(report, "summary.md"), verdict)


def test_accepted(rp, adapter, work, min_bits, bits):
    status, out, _, report = stats(rp, adapter, work, 0, "--min-bits", min_bits)
    data = results(report)
    if data is None:
        return
    cells = data["cells"]
    expect(data["passed"] is True and not any(cell["failed"] for cell in cells),
           "results.json: the run did not pass, or a cell fails")
    resolution = data.get("resolution", {})
    expect(resolution.get("rejected") is False and resolution.get("min_bits") == int(min_bits),
           f"results.json: the resolution is rejected, or not judged at {min_bits} bits: "
           f"{brief(resolution)}")
    expect(bits_read(resolution, bits),
           f"results.json: the resolution read {resolution.get('bits')} bits, expected {bits}")
    expect(resolution.get("contract_p_value", 1) < data["bonferroni_per_test_alpha"],
           "results.json: the source is not below the contract's 53 bits")
    # The sentence a person reads: the source accepted knowingly, below the contract.
    verdict = f"resolution {bits} bits: accepted at --min-bits {min_bits} (below the contract's 53)"
    expect(resolution.get("verdict") == verdict,
           f"results.json: the resolution's verdict is {resolution.get('verdict')!r}, "
           f"expected {verdict!r}")
    summary_line = [line for line in out.splitlines() if line.startswith("PASS: ")]
    expect(summary_line and verdict in summary_line[-1],
           f"the summary line does not say {verdict!r}")
    expect_in_file(os.path.join(report, "summary.md"), verdict)


def expect_in_file(path, text):
    if not os.path.exists(path):
        fail(f"no {path}")
        return
    with open(path, encoding="utf-8") as f:
        expect(text in f.read(), f"{path} does not say {text!r}")


def test_fails(rp, python, work):
    here = os.path.abspath(__file__)
    fake = lambda mode: f"{shlex.quote(python)} {shlex.quote(here)} fake {mode}"
    # The one-process path (--processes 1), then the same faults met by the
    # fleet, and the faults only a fleet or threads meet.
    # A fleet of 3 meets every fault a fleet of 16 does, at a fifth the cost.
    one = ["--processes", "1"]
    three = ["--processes", "3"]
    fleet = "process 1 of the 3 started at once"
    cases = [
        ("dies", ["--impl", fake("dies"), *one], "ADAPTER FAILED: the adapter closed its output"),
        ("garbage", ["--impl", fake("garbage"), *one], "not a protocol answer"),
        ("no sample op", ["--impl", fake("no-sample"), *one], "does it implement the sample op?"),
        ("too few", ["--impl", fake("short"), *one], "1 draw to a request for 65536"),
        ("null", ["--impl", fake("null"), *one], "answered null (give up)"),
        ("hangs", ["--impl", fake("hangs"), "--timeout", "1", *one],
         "gave no answer within 1000 ms"),
        ("bad exit", ["--impl", fake("exit-3"), "--n", "10240", *one], "ended with exit status 3"),
        ("fleet: dies", ["--impl", fake("dies"), *three], f"ADAPTER FAILED: {fleet}"),
        ("fleet: too few", ["--impl", fake("short"), *three], "1 draw to a request for 64"),
        ("fleet: bad exit", ["--impl", fake("exit-3"), "--n", "10240", *three],
         "process 2 of the 3 started at once (a fleet restarts together; an adapter must run "
         "as many processes at once): at the end of its input it ended with exit status 3"),
        ("fleet: one at a time",
         ["--impl", f"{fake('one-at-a-time')} {shlex.quote(work)}", *three],
         "started at once (a fleet restarts together; an adapter must run as many processes at "
         "once): the adapter closed its output"),
        ("threads refused", ["--impl", fake("no-threads"), "--n", "10240", *one],
         "does the adapter implement sample's \"threads\"?"),
        ("--processes 0", ["--impl", "true", "--processes", "0"],
         "--processes: must be in [1, 64] (1 leaves the fleet out), got 0"),
        ("--threads 65", ["--impl", "true", "--threads", "65"],
         "--threads: must be in [1, 64] (the protocol's most; 1 leaves the threads cell out), "
         "got 65"),
        ("--quick and --n", ["--impl", "true", "--quick", "--n", "20000"],
         "--quick: cannot be used with --n"),
        ("--n too small", ["--impl", "true", "--n", "100"], "--n: must be in [10240, "),
        ("no --impl", [], "--impl: required"),
        ("--min-bits too many", ["--impl", "true", "--min-bits", "54"],
         "--min-bits: must be in [8, 53] (53 is the contract's), got 54"),
        ("--min-bits not a number", ["--impl", "true", "--min-bits", "31.5"], "--min-bits: "),
    ]
    # None of these runs judges a cell. A usage error writes no report: its
    # words, naming its parameter, are the thing tested. An adapter's
    # failure leaves a report that says so as data: where it failed, and the
    # adapter's own words (their first line).
    for name, args, says in cases:
        report = os.path.join(work, "r")
        forget_results(report)
        status, out, err = run(rp, ["stats", "--report-dir", report, *args], timeout=120)
        expect(status == 2, f"{name}: exit {status}, expected 2")
        expect(says in out + err, f"{name}: the output does not say {says!r}")
        usage = name.startswith("--") or name == "no --impl"
        if usage:
            expect(not os.path.exists(os.path.join(report, "results.json")),
                   f"{name}: a usage error wrote a report")
            continue
        data = results(report)
        if data is None:
            continue
        expect(data.get("outcome") == "failed_to_test" and data.get("exit_code") == 2
               and data.get("cells") == [],
               f"{name}: results.json: outcome {data.get('outcome')!r}, exit_code "
               f"{data.get('exit_code')!r}, {len(data.get('cells', []))} cells")
        # The console's prefix and hints are not the adapter's words.
        failure = data.get("adapter_failure", "")
        if name == "threads refused":
            expect("threads" in data.get("failed_in", "") and "threads" in failure,
                   f"{name}: results.json: failed in {data.get('failed_in')!r}: {failure!r}")
            continue
        words = says.removeprefix("ADAPTER FAILED: ")[:60]
        expect(words in failure, f"{name}: results.json's adapter_failure does not say "
               f"{words!r}: {failure!r}")

    # A report directory that cannot be made is refused before the adapter
    # is asked anything (it was found after the whole run, 131 s with Python,
    # and the verdict lost): under a regular file, and in a read-only one.
    blocker = os.path.join(work, "a-file")
    with open(blocker, "w", encoding="utf-8") as f:
        f.write("not a directory\n")
    read_only = os.path.join(work, "read-only")
    os.makedirs(read_only, exist_ok=True)
    os.chmod(read_only, 0o500)
    bad_dirs = [os.path.join(blocker, "report")]
    if os.geteuid() != 0:  # root writes anywhere
        bad_dirs.append(os.path.join(read_only, "report"))
    for bad in bad_dirs:
        asked = os.path.join(work, "asked")
        if os.path.exists(asked):
            os.remove(asked)
        status, out, err = run(rp, ["stats", "--impl", f"{fake('record')} {shlex.quote(asked)}",
                                    "--quick", "--report-dir", bad], timeout=120)
        expect(status == 2, f"--report-dir {bad}: exit {status}, expected 2")
        expect("--report-dir: " in err and bad in err,
               f"--report-dir {bad}: does not name the directory")
        expect(not os.path.exists(asked),
               f"--report-dir {bad}: the adapter was asked before the directory was checked")
        expect(last_run.get("seconds", 99) < 5,
               f"--report-dir {bad}: took {last_run.get('seconds', 0):.1f} s")
    os.chmod(read_only, 0o700)

    # An adapter that fails at its first request gets no power table on the
    # console, where a person would read it as a measurement.
    status, out, _ = run(rp, ["stats", "--impl", fake("dies"), "--quick", "--report-dir",
                              os.path.join(work, "r")])
    expect("Power at this n" not in out,
           "a power table was printed for an adapter that never answered")


def test_hostile(rp, python, work):
    here = os.path.abspath(__file__)
    fake = lambda mode: f"{shlex.quote(python)} {shlex.quote(here)} fake {mode}"
    report = os.path.join(work, "report")
    # Draws that are no jitter of the cell: a rejection (exit 1), a report,
    # the first offending values shown exactly with their cell, and a tally.
    outside_band = {"outside": lambda x: x < 0, "nan": math.isnan,
                    "infinity": lambda x: math.isinf(x) and x > 0}
    for mode, is_shown in outside_band.items():
        forget_results(report)
        status, out, err = run(rp, ["stats", "--impl", fake(mode), "--n", "10240",
                                    "--report-dir", report])
        expect(status == 1, f"{mode}: exit {status}, expected 1 (a rejection, not a crash)")
        # A library's exception is known by its words.
        expect("Error in function" not in out + err, f"{mode}: a library's exception escaped")
        data = results(report)
        if data is None:
            continue
        expect(data["passed"] is False, f"{mode}: results.json: the run passed")
        fleet = data.get("fleet", {})
        expect(fleet.get("failed") is True and fleet.get("outside", 0) > 0,
               f"{mode}: results.json: the fleet's delays out of range are not counted: {fleet}")
        cells = data["cells"]
        expect(len(cells) == 33 and not any(cell["range"]["ok"] for cell in cells),
               f"{mode}: results.json: not every one of 33 cells is out of range")
        tiny = [cell for cell in cells if cell["name"] == "jittered/port/f0.05/tiny"]
        shown = tiny[0]["range"]["first_outside"] if tiny else []
        expect(shown and shown[0]["draw"] == 0 and is_shown(float(shown[0]["delay"])),
               f"{mode}: results.json: jittered/port/f0.05/tiny does not show its first "
               f"delay outside the band: {shown}")

    # An error after some cells (spring-retry throws on a delay its long of
    # millis cannot hold): the cell is named, the cells drawn are judged and
    # reported, and the run is not called a pass (exit 2: they passed).
    forget_results(report)
    status, out, err = run(rp, ["stats", "--impl", fake("throws-on-huge"), "--n", "10240",
                                "--processes", "1", "--report-dir", report])
    expect(status == 2,
           f"throws-on-huge: exit {status}, expected 2 (the cells drawn pass, the rest untested)")
    data = results(report)
    if data is not None:
        # The threads cell and the two grid cells before the huge delay.
        drawn = ["jittered/port/f1/threads4", "jittered/port/f0.05/tiny",
                 "jittered/port/f0.05/ordinary"]
        names = [cell["name"] for cell in data["cells"]]
        expect(names == drawn, f"throws-on-huge: results.json: cells {names}, expected {drawn}")
        expect(data["passed"] is True and not any(cell["failed"] for cell in data["cells"]),
               "throws-on-huge: results.json: the cells drawn do not all pass")
        expect(data.get("outcome") == "not_all_tested" and data.get("exit_code") == 2,
               f"throws-on-huge: results.json: outcome {data.get('outcome')!r}, exit_code "
               f"{data.get('exit_code')!r}")
        # Where it stopped, as data; the adapter's own words carried through.
        stopped = data.get("stopped", {})
        expect(stopped.get("cell") == "jittered/port/f0.05/huge"
               and stopped.get("cells_not_drawn_after_it") == 29
               and "java.lang.ArithmeticException: long overflow"
               in stopped.get("adapter_error", ""),
               f"throws-on-huge: results.json's stopped: {stopped!r}")

    # Answers of ~63 MB, under the 64 MiB line cap: bounded memory, clipped
    # echoes. The adapter fails at its first answer: the report says so,
    # its words clipped.
    for mode, says in (("objects", "more than any answer can"),
                       ("big-error", "holds a string of more than 4194304 bytes"),
                       ("big-id", "holds a string of more than 4194304 bytes")):
        status, out, err = run(rp, ["stats", "--impl", fake(mode), "--quick", "--processes",
                                    "1", "--report-dir", report], timeout=300)
        expect(status == 2, f"{mode}: exit {status}, expected 2")
        expect(says in out, f"{mode}: the output does not say {says!r}")
        data = results(report)
        if data is not None:
            failure = data.get("adapter_failure", "")
            expect(data.get("outcome") == "failed_to_test" and says in failure
                   and len(failure) <= 1000,
                   f"{mode}: results.json: {data.get('outcome')!r}, adapter_failure "
                   f"{failure[:300]!r} ({len(failure)} bytes)")
        expect(len(out) <= MAX_ECHOED_OUTPUT,
               f"{mode}: {len(out)} bytes of output, more than {MAX_ECHOED_OUTPUT}: an echo "
               f"is not clipped")
        rss = last_run.get("max_rss_kb", 1 << 30)
        print(f"{mode}: peak RSS {rss // 1024} MB")
        expect(rss <= MAX_RSS_KB,
               f"{mode}: peak RSS {rss // 1024} MB, above {MAX_RSS_KB // 1024} MB")


# ---- the broken adapters ----------------------------------------------------

# About 63 MB, under the checker's 64 MiB line cap.
HUGE = 63 * 1000 * 1000


def write_huge(head, unit, tail):
    """A line of about HUGE bytes, written in pieces so that this adapter
    stays small (the test measures the checker's memory, and wait4 counts
    the adapters it reaped)."""
    out = sys.stdout.buffer
    out.write(head.encode())
    piece = (unit * ((1 << 20) // len(unit))).encode()
    written = 0
    while written < HUGE:
        out.write(piece)
        written += len(piece)
    out.write(tail.encode() + b"\n")
    out.flush()


def fake(mode):
    if mode == "record":  # records that it was asked anything, then dies
        for _ in sys.stdin:
            with open(sys.argv[3], "w", encoding="utf-8") as f:
                f.write("asked\n")
            sys.exit(1)
        return
    if mode == "one-at-a-time":  # a second process at once finds the lock taken, and ends
        import fcntl
        lock = open(os.path.join(sys.argv[3], "one-at-a-time.lock"), "w")
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            sys.exit(1)
    for line in sys.stdin:
        request = json.loads(line)
        count = request.get("count", 1)
        if mode == "no-threads" and "threads" in request:
            print('{"id":%s,"ok":false,"error":"threads: not a member of sample"}'
                  % request["id"], flush=True)
            continue
        numbers = ",".join(["1.0"] * count)
        if mode == "dies":
            sys.exit(1)
        if mode == "hangs":
            time.sleep(3600)
        if mode in ("outside", "nan", "infinity"):
            value = {"nan": lambda: '"NaN"', "infinity": lambda: '"Infinity"',
                     "outside": lambda: repr(-1.0 - random.random())}[mode]
            print('{"id":%s,"ok":true,"result":[%s]}'
                  % (request["id"], ",".join(value() for _ in range(count))), flush=True)
            continue
        if mode == "throws-on-huge":
            # A right jitter of `delay` until a delay a Java long of millis
            # cannot hold, as spring-retry throws there (next_delay is never
            # reached: the jittered cells come first).
            delay = request.get("delay")
            if delay is None or delay > 1e300:
                print('{"id":%s,"ok":false,"error":"java.lang.ArithmeticException: long '
                      'overflow"}' % request["id"], flush=True)
                continue
            f = request["policy"]["jitter_factor"]
            draws = [delay * (1 + (random.random() * 2 - 1) * f) for _ in range(count)]
            print(json.dumps({"id": request["id"], "ok": True, "result": draws}), flush=True)
            continue
        if mode == "objects":
            write_huge('{"id":%s,"ok":true,"result":[{}' % request["id"], ",{}", "]}")
            continue
        if mode == "big-error":
            write_huge('{"id":%s,"ok":false,"error":"' % request["id"], "x", '"}')
            continue
        if mode == "big-id":
            write_huge('{"id":"', "y", '","ok":true,"result":[1.0]}')
            continue
        answer = {
            "garbage": "this is not JSON",
            "no-sample": '{"id":%s,"ok":false,"error":"op: must be \\"schedule\\", '
                         '\\"next_delay\\", \\"jittered\\" or \\"replay\\""}' % request["id"],
            "short": '{"id":%s,"ok":true,"result":[1.0]}' % request["id"],
            "null": '{"id":%s,"ok":true,"result":[null%s]}' % (request["id"], ",1.0" * (count - 1)),
        }.get(mode, '{"id":%s,"ok":true,"result":[%s]}' % (request["id"], numbers))
        print(answer, flush=True)
    if mode == "exit-3":
        sys.exit(3)


def main():
    mode = sys.argv[1]
    if mode == "fake":
        return fake(sys.argv[2])
    rp, adapter, work, extra = sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5:]
    os.makedirs(work, exist_ok=True)
    {"pass": test_pass, "least-n": test_least_n, "drifted": test_drifted, "resolution": test_resolution,
     "accepted": test_accepted, "fails": test_fails,
     "hostile": test_hostile}[mode](rp, adapter, work, *extra)
    return finish()


if __name__ == "__main__":
    sys.exit(main())
