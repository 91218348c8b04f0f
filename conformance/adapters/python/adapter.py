#!/usr/bin/env python3
"""The Python port's adapter: speaks the conformance protocol on stdin/stdout.

One JSON request a line in, one answer a line out, flushed, until end of
input (conformance/README.md has the protocol). Run by
`retry-policy check --impl "python3 conformance/adapters/python/adapter.py"`.

The adapter is the protocol's second implementation as much as the port's
test harness: every rule below (what is malformed, which integers are
accepted, the limits) mirrors conformance/protocol.cc, because `check`
compares the ok-ness of answers to invalid requests too.
"""

import json
import math
import struct
import sys

from retry_policy import RetryPolicy, RubyRandom

MAX_LINE_BYTES = 1 << 20       # a longer request line is an error
MAX_DEPTH = 32                 # arrays and objects nest at most this deep
MAX_SCHEDULE_ENTRIES = 1 << 16
MAX_REPLAY_CALLS = 256
MAX_STEPS = 1 << 20            # next_delay's cost limit, see within_cost_limit
INT64_MIN = -(1 << 63)
INT64_MAX = (1 << 63) - 1
SEED_MAX = (1 << 32) - 1
NON_FINITE = {"Infinity": math.inf, "-Infinity": -math.inf, "NaN": math.nan}


class ProtocolError(Exception):
    """A request that cannot be answered; the message names the field."""


# Numbers out.

def format_number(x):
    if math.isnan(x):
        return '"NaN"'
    if math.isinf(x):
        return '"Infinity"' if x > 0 else '"-Infinity"'
    return repr(float(x))  # shortest round-trip, with ".0" or an exponent


def format_result(result):
    if result is None:
        return "null"
    if isinstance(result, list):
        return "[" + ",".join(format_result(x) for x in result) + "]"
    return format_number(result)


# Lines in.

def nesting_within(raw, max_depth):
    depth = 0
    in_string = escaped = False
    for byte in raw:
        if in_string:
            if escaped:
                escaped = False
            elif byte == 0x5C:  # backslash
                escaped = True
            elif byte == 0x22:  # quote
                in_string = False
        elif byte == 0x22:
            in_string = True
        elif byte in (0x5B, 0x7B):
            depth += 1
            if depth > max_depth:
                return False
        elif byte in (0x5D, 0x7D):
            depth -= 1
    return True


def _reject_constant(name):
    raise ValueError(f"{name} is not JSON")


def _strict_float(text):
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"number overflow: {text[:40]}")
    return value


def _strict_int(text):
    # An integer too large for a finite double is malformed, as for the C++
    # reader, which hands integers beyond 64 bits to strtod.
    value = int(text)
    try:
        float(value)
    except OverflowError:
        raise ValueError(f"number overflow: {text[:40]}") from None
    return value


def _has_lone_surrogate(value):
    # Python's json reads "\ud800" into a str; RFC 8259 text cannot hold one,
    # and the C++ reader rejects it, so the adapter does too.
    if isinstance(value, str):
        return any(0xD800 <= ord(c) <= 0xDFFF for c in value)
    if isinstance(value, list):
        return any(_has_lone_surrogate(v) for v in value)
    if isinstance(value, dict):
        return any(_has_lone_surrogate(k) or _has_lone_surrogate(v) for k, v in value.items())
    return False


def parse_request(raw):
    if len(raw) > MAX_LINE_BYTES:
        raise ProtocolError(f"line: {len(raw)} bytes is longer than the protocol's {MAX_LINE_BYTES}")
    if not nesting_within(raw, MAX_DEPTH):
        raise ProtocolError("line: arrays and objects nest deeper than the protocol's 32")
    if raw.startswith(b"\xef\xbb\xbf"):
        raise ProtocolError("line: starts with a byte-order mark")
    try:
        text = raw.decode("utf-8")
        value = json.loads(text, parse_constant=_reject_constant,
                           parse_float=_strict_float, parse_int=_strict_int)
    except (UnicodeDecodeError, ValueError, RecursionError) as e:
        raise ProtocolError(f"line: not one JSON value: {e}") from None
    if _has_lone_surrogate(value):
        raise ProtocolError("line: not one JSON value: a lone surrogate in a string")
    return value


# Fields.

def _quote(value):
    text = json.dumps(value)
    return text if len(text) <= 60 else text[:60] + "..."


def number_at(value, path):
    if type(value) in (int, float):
        return float(value)
    if isinstance(value, str) and value in NON_FINITE:
        return NON_FINITE[value]
    raise ProtocolError(f'{path}: must be a number or "Infinity", "-Infinity", "NaN", '
                        f"got {_quote(value)}")


def integer_at(value, path, lowest=INT64_MIN, highest=INT64_MAX):
    # JSON integers only: 5.0 and 5e0 are floats on the wire. type() rather
    # than isinstance, since True is an int to Python.
    if type(value) is not int:
        raise ProtocolError(f"{path}: must be an integer in [{lowest}, {highest}], written "
                            f"without fraction or exponent, got {_quote(value)}")
    if not lowest <= value <= highest:
        raise ProtocolError(f"{path}: must be in [{lowest}, {highest}], got {_quote(value)}")
    return value


def required(obj, key, path):
    if key not in obj:
        raise ProtocolError(f"{path}: missing")
    return obj[key]


def draw_at(value, path):
    r = number_at(value, path)
    if not 0.0 <= r < 1.0:
        raise ProtocolError(f"{path}: must be in [0, 1), got {format_number(r)}")
    return r


def only_keys(policy, allowed, form):
    for key in policy:
        if key not in allowed:
            raise ProtocolError(f"policy.{json.dumps(key)}: unknown field for {form}")


CONSTRUCTOR_FIELDS = ("max_attempts", "initial_delay", "multiplier", "max_delay",
                      "jitter_factor", "max_message_age")


def base_policy(p, policy_class):
    if "factory" not in p:
        only_keys(p, CONSTRUCTOR_FIELDS + ("give_up_after", "with_jitter"), "a constructor policy")
        fields = {}
        for name in CONSTRUCTOR_FIELDS:
            if name in p:
                path = "policy." + name
                fields[name] = (integer_at(p[name], path) if name == "max_attempts"
                                else number_at(p[name], path))
        return policy_class(**fields)
    factory = p["factory"]
    if not isinstance(factory, str):
        raise ProtocolError(f"policy.factory: must be a string, got {_quote(factory)}")
    if factory == "none":
        only_keys(p, ("factory", "give_up_after", "with_jitter"), "factory none")
        return policy_class.none()
    if factory == "fixed":
        only_keys(p, ("factory", "max_attempts", "delay", "give_up_after", "with_jitter"),
                  "factory fixed")
        n = integer_at(required(p, "max_attempts", "policy.max_attempts"), "policy.max_attempts")
        delay = number_at(required(p, "delay", "policy.delay"), "policy.delay")
        return policy_class.fixed(n, delay)
    if factory == "exponential":
        only_keys(p, ("factory", "max_attempts", "initial_delay", "max_delay",
                      "give_up_after", "with_jitter"), "factory exponential")
        n = integer_at(required(p, "max_attempts", "policy.max_attempts"), "policy.max_attempts")
        initial = number_at(required(p, "initial_delay", "policy.initial_delay"),
                            "policy.initial_delay")
        cap = number_at(p["max_delay"], "policy.max_delay") if "max_delay" in p else 0.0
        return policy_class.exponential(n, initial, cap)
    raise ProtocolError('policy.factory: must be "none", "fixed" or "exponential", '
                        f"got {_quote(factory)}")


def policy_from_json(p, policy_class=RetryPolicy):
    if not isinstance(p, dict):
        raise ProtocolError(f"policy: must be an object, got {_quote(p)}")
    try:
        policy = base_policy(p, policy_class)
    except ValueError as e:
        raise ProtocolError(f"policy: {e}") from None
    if "give_up_after" in p:
        age = number_at(p["give_up_after"], "policy.give_up_after")
        try:
            policy = policy.give_up_after(age)
        except ValueError as e:
            raise ProtocolError(f"policy.give_up_after: {e}") from None
    if "with_jitter" in p:
        factor = number_at(p["with_jitter"], "policy.with_jitter")
        try:
            policy = policy.with_jitter(factor)
        except ValueError as e:
            raise ProtocolError(f"policy.with_jitter: {e}") from None
    return policy


# The cost limit.

def gives_up(policy, attempt, message_age):
    limit = policy.max_message_age
    return attempt >= policy.max_attempts or (limit > 0.0 and message_age >= limit)


def same_bits(a, b):
    return struct.pack("<d", a) == struct.pack("<d", b)


def within_cost_limit(policy, attempt, message_age):
    """Whether next_delay(attempt, message_age) is within the protocol's cost
    limit: it gives up, or its answer rests on at most 2^20 multiplications
    of the schedule loop, counting the early exits (conformance/README.md)."""
    if attempt < 1 or math.isnan(message_age) or gives_up(policy, attempt, message_age):
        return True  # nothing to walk: an answer, or the argument's own error
    if attempt - 1 <= MAX_STEPS:
        return True
    cap = policy.max_delay
    multiplier = policy.multiplier
    cap_is_final = cap > 0.0 and multiplier >= 1.0
    running = policy.initial_delay
    for k in range(MAX_STEPS + 1):
        if cap_is_final and running > cap:
            return True  # every later entry is the cap: k multiplications
        if running == 0.0:
            return True  # only the sign can change, by parity: k multiplications
        following = running * multiplier
        if same_bits(following, running):
            return k + 1 <= MAX_STEPS  # the multiplication that shows it counts
        running = following
    return False


def next_delay(policy, attempt, message_age, where, call):
    if not within_cost_limit(policy, attempt, message_age):
        raise ProtocolError(f"{where}attempt: {attempt} needs more than 2^20 multiplications "
                            "on this policy, which does not settle within 2^20 steps")
    try:
        return call()
    except ValueError as e:
        raise ProtocolError(f"{where}{e}") from None


# The ops.

def answer_schedule(request, policy):
    entries = policy.max_attempts - 1
    if entries > MAX_SCHEDULE_ENTRIES:
        raise ProtocolError(f"policy.max_attempts: a schedule of {entries} entries is more "
                            "than the protocol's 65536")
    return policy.schedule()


def answer_next_delay(request, policy):
    attempt = integer_at(required(request, "attempt", "attempt"), "attempt")
    age = number_at(request["message_age"], "message_age") if "message_age" in request else 0.0
    jitter = request.get("jitter", True)
    if not isinstance(jitter, bool):
        raise ProtocolError(f"jitter: must be true or false, got {_quote(jitter)}")
    if jitter:
        r = draw_at(required(request, "r", "r"), "r")
        return next_delay(policy, attempt, age, "",
                          lambda: policy.next_delay(attempt, age, jitter=True, source=lambda: r))
    return next_delay(policy, attempt, age, "",
                      lambda: policy.next_delay(attempt, age, jitter=False))


def answer_jittered(request, policy):
    delay = number_at(required(request, "delay", "delay"), "delay")
    r = draw_at(required(request, "r", "r"), "r")
    try:
        return policy.jittered_with_draw(delay, r)
    except ValueError as e:
        raise ProtocolError(f"delay: {e}") from None


def answer_replay(request, policy):
    seed = integer_at(required(request, "seed", "seed"), "seed", 0, SEED_MAX)
    calls = required(request, "calls", "calls")
    if not isinstance(calls, list):
        raise ProtocolError(f"calls: must be an array of [attempt, message_age], got {_quote(calls)}")
    if len(calls) > MAX_REPLAY_CALLS:
        raise ProtocolError(f"calls: {len(calls)} calls is more than the protocol's 256")
    parsed = []
    for i, call in enumerate(calls):
        path = f"calls[{i}]"
        if not isinstance(call, list) or len(call) != 2:
            raise ProtocolError(f"{path}: must be [attempt, message_age], got {_quote(call)}")
        parsed.append((integer_at(call[0], path + "[0] (attempt)"),
                       number_at(call[1], path + "[1] (message_age)")))
    source = RubyRandom(seed)
    return [next_delay(policy, attempt, age, f"calls[{i}] ",
                       lambda attempt=attempt, age=age: policy.next_delay(attempt, age, source=source))
            for i, (attempt, age) in enumerate(parsed)]


OPS = {
    "schedule": answer_schedule,
    "next_delay": answer_next_delay,
    "jittered": answer_jittered,
    "replay": answer_replay,
}


def answer_line(raw, policy_class=RetryPolicy):
    """The answer to one request line (bytes, without the newline)."""
    request_id = None
    try:
        request = parse_request(raw)
        if not isinstance(request, dict):
            raise ProtocolError(f"line: must be a JSON object, got {_quote(request)}")
        request_id = request.get("id")
        op = required(request, "op", "op")
        if not isinstance(op, str) or op not in OPS:
            raise ProtocolError('op: must be "schedule", "next_delay", "jittered" or "replay", '
                                f"got {_quote(op)}")
        policy = policy_from_json(required(request, "policy", "policy"), policy_class)
        result = OPS[op](request, policy)
        return f'{{"id":{json.dumps(request_id)},"ok":true,"result":{format_result(result)}}}'
    except ProtocolError as e:
        message = str(e)
    except Exception as e:  # noqa: BLE001 - a bug here must not end the conversation
        message = f"internal: {type(e).__name__}: {e}"
    return f'{{"id":{json.dumps(request_id)},"ok":false,"error":{json.dumps(message)}}}'


def lines(stream):
    """Request lines as bytes; an overlong one as the int count of its bytes."""
    while True:
        chunk = stream.readline(MAX_LINE_BYTES + 1)
        if not chunk:
            return
        if chunk.endswith(b"\n"):
            yield chunk[:-1]
        elif len(chunk) <= MAX_LINE_BYTES:
            yield chunk  # the last line, without a newline
        else:
            # Too long: drop the rest of it without keeping it.
            length = len(chunk)
            while True:
                more = stream.readline(1 << 16)
                if not more:
                    break
                if more.endswith(b"\n"):
                    length += len(more) - 1
                    break
                length += len(more)
            yield length


def serve(policy_class=RetryPolicy, stdin=None, stdout=None):
    stdin = stdin or sys.stdin.buffer
    stdout = stdout or sys.stdout.buffer
    for line in lines(stdin):
        if isinstance(line, int):
            answer = ('{"id":null,"ok":false,"error":"line: %d bytes is longer than the '
                      "protocol's %d\"}" % (line, MAX_LINE_BYTES))
        else:
            answer = answer_line(line, policy_class)
        stdout.write(answer.encode("ascii") + b"\n")
        stdout.flush()


if __name__ == "__main__":
    serve()
