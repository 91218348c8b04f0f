#!/usr/bin/env python3
"""No line takes `retry-policy serve` down, and none hangs it.

One serve process gets a run of hostile lines, each of which must be answered
with "ok": false (and the id when one could be read), followed by a valid
request that must still be answered correctly: the server went on. Then end of
input must end it with exit status 0. Every line is answered within the
deadline, or the test fails rather than waits.

    serve_robustness_test.py RETRY_POLICY
"""

import json
import subprocess
import sys

from assertions import expect, fail, finish

VALID = b'{"id":"last","op":"schedule","policy":{"factory":"exponential","max_attempts":5,"initial_delay":0.5,"max_delay":3}}'
VALID_ANSWER = '{"id":"last","ok":true,"result":[0.5,1.0,2.0,3.0]}'

# (name, line, id the answer must echo)
HOSTILE = [
    ("empty line", b"", None),
    ("blank line", b" \t ", None),
    ("not JSON", b"schedule please", None),
    ("truncated", VALID[:40], None),
    ("two values", VALID + b" " + VALID, None),
    ("array", b"[1,2,3]", None),
    ("bare NaN token", b'{"id":1,"op":"jittered","policy":{},"delay":NaN,"r":0}', None),
    ("number overflow", b'{"id":1,"op":"jittered","policy":{},"delay":1e400,"r":0}', None),
    ("NUL byte", b'{"id":1,"op":"sched\x00ule","policy":{}}', None),
    ("invalid UTF-8", b'{"id":1,"op":"schedule","policy":{},"note":"\xff\xfe"}', None),
    ("lone surrogate", b'{"id":1,"op":"schedule","policy":{},"note":"\\ud800"}', None),
    ("byte-order mark", b"\xef\xbb\xbf" + VALID, None),
    ("deep nesting", b"[" * 200000 + b"]" * 200000, None),
    ("deep unclosed", b"{\"a\":" * 100000, None),
    ("2 MiB line", b'{"id":1,"pad":"' + b"p" * (2 << 20) + b'"}', None),
    ("unknown op", b'{"id":2,"op":"rm -rf","policy":{}}', 2),
    ("policy not object", b'{"id":3,"op":"schedule","policy":[]}', 3),
    ("schedule too long", b'{"id":4,"op":"schedule","policy":{"max_attempts":9223372036854775807}}', 4),
    ("too many calls", b'{"id":5,"op":"replay","policy":{},"seed":1,"calls":[' + b",".join([b"[1,0]"] * 257) + b"]}", 5),
    ("non-settling attempt", b'{"id":6,"op":"next_delay","policy":{"max_attempts":9223372036854775807,'
     b'"initial_delay":1e-300,"multiplier":1.000000001},"attempt":1000000000000000,"jitter":false}', 6),
    ("creeping attempt", b'{"id":7,"op":"next_delay","policy":{"max_attempts":9223372036854775807,'
     b'"initial_delay":1,"multiplier":1.0000000000000002},"attempt":9223372036854775806,"jitter":false}', 7),
    ("attempt beyond int64", b'{"id":8,"op":"next_delay","policy":{},"attempt":9223372036854775808,"jitter":false}', 8),
    ("seed beyond 32 bits", b'{"id":9,"op":"replay","policy":{},"seed":4294967296,"calls":[]}', 9),
    ("draw of 1", b'{"id":10,"op":"jittered","policy":{"jitter_factor":0.5},"delay":1,"r":1.0}', 10),
    ("NaN delay", b'{"id":11,"op":"jittered","policy":{"jitter_factor":0.5},"delay":"NaN","r":0.5}', 11),
    ("huge id echoed", b'{"id":[[[{"a":"b"}]]],"op":"nope","policy":{}}', [[[{"a": "b"}]]]),
]


def main(retry_policy):
    lines = [line for _, line, _ in HOSTILE] + [VALID]
    # The last line has no newline: it is still a request.
    stdin = b"\n".join(lines)
    try:
        run = subprocess.run([retry_policy, "serve"], input=stdin, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, timeout=60)
    except subprocess.TimeoutExpired:
        fail("serve did not finish within 60 s: a line hung it")
        return finish()
    answers = run.stdout.decode("ascii").splitlines()
    expect(run.returncode == 0, f"serve exited {run.returncode}; stderr: {run.stderr[-500:]!r}")
    expect(len(answers) == len(lines), f"{len(lines)} lines, {len(answers)} answers")
    for (name, _, expected_id), text in zip(HOSTILE, answers):
        answer = json.loads(text)
        print(f"{name}: {text[:160]}")
        if expect(answer.get("ok") is False, f"{name}: not an error: {text[:200]}"):
            expect(answer.get("error") and not answer["error"].startswith("internal"),
                   f"{name}: no proper error message: {text[:200]}")
        expect(answer.get("id") == expected_id,
               f"{name}: id {answer.get('id')!r}, expected {expected_id!r}")
    if answers:
        expect(answers[-1] == VALID_ANSWER,
               f"the valid request after them: {answers[-1][:200]}, expected {VALID_ANSWER}")
    return finish()


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
