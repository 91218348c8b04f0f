#!/usr/bin/env python3
"""`retry-policy serve` answers every reference vector bit for bit.

Pipes each line of a vector file, as it is (the "expect" member is ignored by
the protocol), through one `serve` process and compares each answer's numbers
with the expected ones as 64-bit patterns. Python's float() rounds decimal
text correctly, so equal bits here mean equal bits in binary64.

    serve_vectors_test.py RETRY_POLICY VECTORS.jsonl
"""

import json
import math
import struct
import subprocess
import sys

from assertions import expect, fail, finish

NON_FINITE = {"Infinity": math.inf, "-Infinity": -math.inf, "NaN": math.nan}


def bits(x):
    if x is None:
        return None
    x = NON_FINITE[x] if isinstance(x, str) else float(x)
    return "NaN" if math.isnan(x) else struct.unpack("<Q", struct.pack("<d", x))[0]


def shape(result):
    return [bits(x) for x in result] if isinstance(result, list) else bits(result)


def main(retry_policy, vectors):
    with open(vectors, "rb") as f:
        lines = [line.rstrip(b"\n") for line in f if line.strip()]
    run = subprocess.run([retry_policy, "serve"], input=b"\n".join(lines) + b"\n",
                         stdout=subprocess.PIPE, timeout=120)
    answers = run.stdout.decode().splitlines()
    expect(run.returncode == 0, f"serve exited {run.returncode}")
    expect(len(answers) == len(lines), f"{len(lines)} requests, {len(answers)} answers")
    agree = 0
    for line, answer_text in zip(lines, answers):
        vector = json.loads(line)
        answer = json.loads(answer_text)
        if answer.get("id") != vector.get("id"):
            fail(f"id {vector.get('id')}: answered id {answer.get('id')}")
        elif "expect_error" in vector:
            agree += expect(answer.get("ok") is False,
                            f"id {vector['id']}: expected an error, got {answer_text}")
        else:
            agree += expect(answer.get("ok") is True
                            and shape(answer["result"]) == shape(vector["expect"]),
                            f"id {vector['id']}: expected {json.dumps(vector['expect'])[:300]}, "
                            f"got {answer_text[:300]}")
    print(f"{len(lines)} vectors from {vectors}: {agree} agree bit for bit")
    return finish()


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
