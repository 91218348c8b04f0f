#!/usr/bin/env python3
"""`retry-policy vectors` writes the core's answers as vector lines: the same
seed gives the same bytes, every line carries "expect" or "expect_error", the
file is a valid --vectors input, and `check` agrees with the Python port on it
(so the vectors are answers a second implementation also computes).

    vectors_command_test.py RETRY_POLICY PYTHON ADAPTER_PY WORK_DIR
"""

import json
import os
import shlex
import subprocess
import sys

from assertions import expect, finish


def main(rp, python, adapter, work):
    os.makedirs(work, exist_ok=True)

    def vectors(*args):
        return subprocess.run([rp, "vectors", *args], stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, timeout=120)

    first = vectors("--cases", "400", "--seed", "20261129")
    second = vectors("--cases", "400", "--seed", "20261129")
    other = vectors("--cases", "400", "--seed", "20261130")
    expect(first.returncode == 0 and first.stdout == second.stdout,
           "the same seed must give the same vectors")
    expect(first.stdout != other.stdout, "another seed gave the same vectors")
    lines = first.stdout.decode().splitlines()
    expect(len(lines) == 400, f"{len(lines)} lines, expected 400")
    errors = 0
    for line in lines:
        vector = json.loads(line)
        expect(("expect" in vector) != ("expect_error" in vector),
               f"neither or both of expect/expect_error: {line[:200]}")
        errors += "expect_error" in vector
    expect(0 < errors < 100,
           f"{errors} of 400 are errors: the full profile mixes in about 1 in 10")

    path = os.path.join(work, "generated.jsonl")
    with open(path, "wb") as f:
        f.write(first.stdout)
    check = subprocess.run([rp, "check", "--impl", f"{shlex.quote(python)} {shlex.quote(adapter)}",
                            "--vectors", path, "--cases", "0"],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=300)
    print(check.stdout.decode()[-2000:])
    expect(check.returncode == 0 and "400 sent, 400 agree" in check.stdout.decode(),
           f"check on the generated vectors exited {check.returncode}")

    reference = vectors("--cases", "300", "--seed", "5", "--reference-profile")
    expect(b"expect_error" not in reference.stdout, "the reference profile wrote an error vector")

    return finish()


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
