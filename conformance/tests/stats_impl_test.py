#!/usr/bin/env python3
"""`retry-policy stats --impl`: the battery on a port's own default source.

    stats_impl_test.py pass RETRY_POLICY ADAPTER_COMMAND WORK_DIR
        a good port: exit 0, the power table, the report, no seed
    stats_impl_test.py drifted RETRY_POLICY ADAPTER_COMMAND WORK_DIR
        a port with the right arithmetic and a wrong default source: `check`
        exits 0 (it injects r) and `stats --quick` exits 1
    stats_impl_test.py resolution RETRY_POLICY ADAPTER_COMMAND WORK_DIR BITS
        a port whose default source has too few bits (on a binary grid or
        not, repeating or full-period): `check` exits 0, `stats --quick`
        exits 1 naming the resolution: "resolution BITS bits, below the
        contract's 53 (docs/contract.md §5)"
    stats_impl_test.py accepted RETRY_POLICY ADAPTER_COMMAND WORK_DIR MIN_BITS BITS
        the same port accepted knowingly: `stats --quick --min-bits MIN_BITS`
        exits 0 and says "accepted at --min-bits MIN_BITS (below the
        contract's 53)"
    stats_impl_test.py fails RETRY_POLICY PYTHON WORK_DIR
        usage errors and adapters that die, hang or answer garbage: exit 2
    stats_impl_test.py hostile RETRY_POLICY PYTHON WORK_DIR
        adapters whose answers are no uniform jitter at all (outside the
        band, NaN, infinite): exit 1 with the first values shown and a
        tally; an error after some cells: the cell named, the cells drawn
        judged and reported, exit 2; answers of ~63 MB (objects, an error, an id): exit 2, the
        adapter's words clipped, peak RSS at most 256 MB
    stats_impl_test.py fake MODE
        (used by `fails` and `hostile`) a broken adapter, one MODE a way to break

Every run is `--quick`, the size the README promises fits a port's CI.
"""

import json
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
    status, out, err = run(rp, ["stats", "--impl", adapter, "--quick", "--report-dir", report,
                                "--progress-every", "5", *extra])
    expect(status == code, f"stats --impl {adapter}: exit {status}, expected {code}")
    return status, out, err, report


def progress_lines(err):
    return [line for line in err.splitlines() if re.match(r"\[ *\d+/\d+ cells\]", line)]


def test_pass(rp, adapter, work):
    status, out, err, report = stats(rp, adapter, work, 0)
    for text in ("PASS: 33 of 33 cells pass at n 524288", "family-wise alpha 1e-06 over 300 tests",
                 "| repeats_2^40 |", "| resolution |", "cannot be replayed", "draws/s",
                 "fleet (16 processes started at once, the first 64 draws of each): each draws "
                 "its own stream", "the fleet draws apart"):
        expect(text in out, f"the output does not say {text!r}")
    # The rule judged and met: 53 bits read off the grid (Python, Java, .NET,
    # the core), or, for draws finer than the 2^-53 grid (Go's Float64 is
    # Int63/2^63), no coarser grid at all up to the spacing test's certain bits.
    met = (r"resolution (53 bits: meets the contract's 53|more than \d+\.\d bits: on no binary grid "
           r"coarser than 2\^-53, nor any grid coarser than 2\^-\d+\.\d) \(docs/contract\.md §5\)")
    summary_line = [line for line in out.splitlines() if line.startswith("PASS: ")]
    expect(summary_line and re.search(met, summary_line[-1]),
           "the summary line does not say the resolution meets the contract's 53")
    lines = progress_lines(err)
    expect(lines and "[34/34 cells]" in lines[-1], "no final progress line on stderr")
    # --progress-every 5: a line every 5 s and one at the end, not one a cell.
    most = int(last_run.get("seconds", 0) / 5) + 2
    expect(len(lines) <= most,
           f"{len(lines)} progress lines in {last_run.get('seconds', 0):.0f} s at one every 5 s "
           f"(at most {most})")
    expect("WARNING" not in out, "--quick warns that it cannot see a 32-bit source")
    summary = os.path.join(report, "summary.md")
    expect(os.path.exists(summary), "no summary.md")
    if os.path.exists(summary):
        with open(summary, encoding="utf-8") as f:
            text = f.read()
        expect("cannot be replayed" in text, "the summary does not say the run cannot be replayed")
        expect("Seed:" not in text, "the summary shows a seed")
    results = os.path.join(report, "results.json")
    if os.path.exists(results):
        with open(results, encoding="utf-8") as f:
            data = json.load(f)
        expect(data["seed"] is None and data["replay"] is None, "results.json has a seed")
        expect(len(data["cells"]) == 33, "results.json: not 33 cells")
        fleet = data.get("fleet", {})
        expect(fleet.get("failed") is False and fleet.get("processes") == 16,
               f"results.json: the fleet failed or is missing: {fleet}")
        expect(os.path.exists(os.path.join(report, "svg", "fleet.svg")), "no picture of the fleet")
        resolution = data.get("resolution", {})
        expect(resolution.get("rejected") is False and resolution.get("bits", 0) >= 33,
               f"results.json: resolution {resolution.get('bits')}, rejected or missing")
        svg = [c["ecdf_svg"] for c in data["cells"]] + [c["histogram_svg"] for c in data["cells"]]
        expect(all(os.path.exists(os.path.join(report, p)) for p in svg), "a picture is missing")
    else:
        fail("no results.json")


def test_drifted(rp, adapter, work, *expected):
    status, out, _ = run(rp, ["check", "--impl", adapter, "--cases", "2000"])
    expect(status == 0,
           f"check --impl {adapter}: exit {status}, expected 0 (the arithmetic is right)")
    _, out, _, report = stats(rp, adapter, work, 1)
    expect("\nFAIL: " in out, "the output does not say FAIL")
    expect("\nRejected: " in out, "a failing run does not end in a tally of what rejected")
    for text in expected:
        expect(text in out, f"the output does not say {text!r}")
    return out, report


def test_resolution(rp, adapter, work, bits):
    verdict = f"resolution {bits} bits, below the contract's 53 (docs/contract.md §5)"
    out, report = test_drifted(rp, adapter, work, verdict)
    summary_line = [line for line in out.splitlines() if line.startswith("FAIL: ")]
    expect(summary_line and verdict in summary_line[-1],
           "the summary line does not name the resolution")
    expect_in_file(os.path.join(report, "summary.md"), verdict)


def test_accepted(rp, adapter, work, min_bits, bits):
    verdict = f"resolution {bits} bits: accepted at --min-bits {min_bits} (below the contract's 53)"
    status, out, _, report = stats(rp, adapter, work, 0, "--min-bits", min_bits)
    summary_line = [line for line in out.splitlines() if line.startswith("PASS: ")]
    expect(summary_line and verdict in summary_line[-1],
           f"the summary line does not say {verdict!r}")
    expect(f"--min-bits {min_bits}: a source of {min_bits} bits or more is accepted" in out,
           f"the header does not say --min-bits {min_bits}")
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
    for name, args, says in cases:
        status, out, err = run(rp, ["stats", "--report-dir", os.path.join(work, "r"), *args],
                               timeout=120)
        expect(status == 2, f"{name}: exit {status}, expected 2")
        expect(says in out + err, f"{name}: the output does not say {says!r}")

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

    # An adapter that fails at its first request gets no power table.
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
    for mode, shown in (("outside", "(draw 0)"), ("nan", "NaN (draw 0)"),
                        ("infinity", "Infinity (draw 0)")):
        status, out, err = run(rp, ["stats", "--impl", fake(mode), "--n", "10240",
                                    "--report-dir", report])
        expect("of the fleet's delays outside [0, 2) (2r for r in [0, 1))" in out,
               f"{mode}: the fleet's delays out of range are not shown")
        expect(status == 1, f"{mode}: exit {status}, expected 1 (a rejection, not a crash)")
        expect("Error in function" not in out + err, f"{mode}: a library's exception escaped")
        expect(re.search(r"FAIL jittered/port/f0\.05/tiny: rejected by range.*outside the band \[.*"
                         + re.escape(shown), out),
               f"{mode}: the output does not show {shown!r} with its cell")
        expect("Rejected: range in 33 of 33 cells" in out,
               f"{mode}: no tally of what rejected")
        expect_in_file(os.path.join(report, "summary.md"), shown)

    # An error after some cells (spring-retry throws on a delay its long of
    # millis cannot hold): the cell is named, the cells drawn are judged and
    # reported, and the run is not called a pass (exit 2: they passed).
    status, out, err = run(rp, ["stats", "--impl", fake("throws-on-huge"), "--n", "10240",
                                "--processes", "1", "--report-dir", report])
    expect(status == 2,
           f"throws-on-huge: exit {status}, expected 2 (the cells drawn pass, the rest untested)")
    for text in ("answered with an error, after 4 sample answers it drew: "
                 "java.lang.ArithmeticException: long overflow",
                 "FAILED TO TEST: cell jittered/port/f0.05/huge and the 29 after it (of 32)",
                 "NOT ALL TESTED: 3 of 3 cells pass (of those drawn; the adapter answered an "
                 "error in jittered/port/f0.05/huge)"):
        expect(text in out, f"throws-on-huge: the output does not say {text!r}")
    expect_in_file(os.path.join(report, "summary.md"), "jittered/port/f0.05/ordinary")
    with open(os.path.join(report, "results.json"), encoding="utf-8") as f:
        stopped = json.load(f).get("stopped_by", "")
    expect("jittered/port/f0.05/huge" in stopped,
           f"throws-on-huge: results.json's stopped_by does not name the cell: {stopped!r}")

    # Answers of ~63 MB, under the 64 MiB line cap: bounded memory, clipped echoes.
    for mode, says in (("objects", "result array holds an object at draw 0"),
                       ("big-error", "does it implement the sample op?"),
                       ("big-id", "answered id")):
        status, out, err = run(rp, ["stats", "--impl", fake(mode), "--quick", "--processes",
                                    "1", "--report-dir", report], timeout=300)
        expect(status == 2, f"{mode}: exit {status}, expected 2")
        expect(says in out, f"{mode}: the output does not say {says!r}")
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
    {"pass": test_pass, "drifted": test_drifted, "resolution": test_resolution,
     "accepted": test_accepted, "fails": test_fails,
     "hostile": test_hostile}[mode](rp, adapter, work, *extra)
    return finish()


if __name__ == "__main__":
    sys.exit(main())
