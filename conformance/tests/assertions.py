"""The assertions every Python test script of this repository shares.

A failed assertion is recorded and the script goes on, so one run shows
every failure, not only the first; `finish()` then prints each as a
"FAIL: ..." line, then PASSED or FAILED, and gives the exit code (1 when
anything failed), which CTest reads:

    from assertions import expect, fail, finish

    expect(status == 0, f"check: exit {status}, expected 0")
    ...
    sys.exit(finish())

One argument order everywhere: the condition, then what failed, as in
Python's own `assert condition, message`. The scripts in this folder import
it as a sibling (Python puts a script's folder first on its path); a script
elsewhere puts this folder on its path first.
"""

failures = []


def fail(message):
    """Records a failure: for a check that is not one condition (a timeout,
    a branch that should not be reached)."""
    failures.append(message)


def expect(condition, message):
    """Records `message` as a failure unless `condition` holds; returns
    whether it held, so that a script can skip what depends on it."""
    if not condition:
        failures.append(message)
    return bool(condition)


def finish(summary=""):
    """Prints every failure and the verdict (with `summary` after PASSED),
    and returns the script's exit code."""
    for failure in failures:
        print("FAIL:", failure)
    if failures:
        print("FAILED: " + ("1 failure" if len(failures) == 1 else f"{len(failures)} failures"))
    else:
        print(f"PASSED: {summary}" if summary else "PASSED")
    return 1 if failures else 0
