#!/usr/bin/env python3
"""The Python port's adapter: speaks the conformance protocol on stdin/stdout.

One JSON request a line in, one answer a line out, flushed, until end of
input (docs/protocol.md has the protocol). Run by
`retry-policy check --impl "python3 conformance/adapters/python/adapter.py"`.

The adapter is the protocol's second implementation as much as the port's
test harness: every rule below (what is malformed, which integers are
accepted, the limits) mirrors conformance/protocol/request.cc, because `check`
compares the ok-ness of answers to invalid requests too.
"""

import functools
import json
import math
import sys
import threading

from retry_policy import InvalidParameter, RetryPolicy, RubyRandom

MAX_LINE_BYTES = 1 << 20       # a longer request line is an error
MAX_DEPTH = 32                 # arrays and objects nest at most this deep
MAX_SCHEDULE_ENTRIES = 1 << 16
MAX_REPLAY_CALLS = 256
MAX_REPLAY_SKIP = 1 << 16      # draws a replay may discard: 210 refills of MT19937's state
MAX_SAMPLE_COUNT = 1 << 16     # draws in one sample answer (about 1.3 MB of JSON)
MAX_SAMPLE_THREADS = 64        # threads drawing at once for one sample answer
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


class _Malformed(ValueError):
    """Why a line is not one JSON value, in the protocol's words."""


def _reject_constant(name):
    raise _Malformed('bare NaN or Infinity; write the strings "NaN", "Infinity"')


def _overflow(text):
    return _Malformed(f"the number {text[:60]} is beyond binary64's range "
                      '(write "Infinity" for an infinite value)')


def _strict_float(text):
    value = float(text)
    if not math.isfinite(value):
        raise _overflow(text)
    return value


def _strict_int(text):
    # An integer too large for a finite double is malformed, as for the C++
    # reader, which hands integers beyond 64 bits to strtod.
    value = int(text)
    try:
        float(value)
    except OverflowError:
        raise _overflow(text) from None
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


def _decode_error(e, text):
    """A json.JSONDecodeError in the protocol's words."""
    at = f", at column {e.colno}"
    if not text.strip():
        return "empty; a request is one JSON object"
    if e.msg == "Extra data":
        return "more than one JSON value" + at
    if e.pos >= len(text.rstrip()) or e.msg.startswith("Unterminated string"):
        return "ends inside a JSON value (truncated?)"
    if e.msg.startswith("Invalid control character"):
        return "a string holds an unescaped control character" + at
    if e.msg.startswith("Invalid \\escape") or e.msg.startswith("Invalid \\u"):
        return "a string holds an invalid escape" + at
    return "not JSON" + at


def parse_request(raw):
    if len(raw) > MAX_LINE_BYTES:
        raise ProtocolError(f"line: {len(raw)} bytes is longer than the protocol's {MAX_LINE_BYTES}")
    if not nesting_within(raw, MAX_DEPTH):
        raise ProtocolError("line: arrays and objects nest deeper than the protocol's 32")
    if raw.startswith(b"\xef\xbb\xbf"):
        raise ProtocolError("line: starts with a byte-order mark")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        raise ProtocolError(f"line: invalid UTF-8, at column {e.start + 1}") from None
    try:
        value = json.loads(text, parse_constant=_reject_constant,
                           parse_float=_strict_float, parse_int=_strict_int)
    except _Malformed as e:
        raise ProtocolError(f"line: {e}") from None
    except json.JSONDecodeError as e:
        raise ProtocolError("line: " + _decode_error(e, text)) from None
    except RecursionError:
        raise ProtocolError("line: arrays and objects nest deeper than the protocol's 32") from None
    if _has_lone_surrogate(value):
        raise ProtocolError("line: a string holds a lone surrogate (\\ud800 to \\udfff)")
    return value


# Fields.

def _compact(value):
    return json.dumps(value, separators=(",", ":"))


def _quote(value):
    text = _compact(value)
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


def only_members(obj, allowed, what, prefix="", also=()):
    """Every member of obj is allowed (or in `also`); the message lists them."""
    for key in obj:
        if key not in allowed and key not in also:
            raise ProtocolError(f"{prefix}{_quote(key)}: not a member of {what} "
                                f"(its members: {', '.join(allowed)})")


def _core_rule(path, value, error):
    """The port's InvalidParameter in the protocol's words: "<path>: must be
    <rule>, got <value>", the request's field in place of the parameter."""
    if isinstance(value, float) and math.isnan(value) and "NaN" in error.rule:
        return ProtocolError(f"{path}: must be {error.rule}")
    shown = value if isinstance(value, int) else format_number(value)
    return ProtocolError(f"{path}: must be {error.rule}, got {shown}")


CONSTRUCTOR_FIELDS = ("max_attempts", "initial_delay", "multiplier", "max_delay",
                      "jitter_factor", "max_message_age")
COPIES = ("give_up_after", "with_jitter")


def _made(make, values, delay_field="initial_delay"):
    """The base policy, made (and validated) by the port; a refusal names the
    request's field (`delay` for fixed's initial_delay)."""
    try:
        return make()
    except InvalidParameter as e:
        field = delay_field if e.parameter == "initial_delay" else e.parameter
        raise _core_rule("policy." + field, values.get(e.parameter), e) from None


def base_policy(p, policy_class):
    if "factory" not in p:
        only_members(p, CONSTRUCTOR_FIELDS + COPIES, "a constructor policy", "policy.")
        fields = {}
        for name in CONSTRUCTOR_FIELDS:
            if name in p:
                path = "policy." + name
                fields[name] = (integer_at(p[name], path) if name == "max_attempts"
                                else number_at(p[name], path))
        return _made(lambda: policy_class(**fields), fields)
    factory = p["factory"]
    if factory == "none":
        only_members(p, ("factory",) + COPIES, "a policy of factory none", "policy.")
        return policy_class.none()
    if factory == "fixed":
        only_members(p, ("factory", "max_attempts", "delay") + COPIES,
                     "a policy of factory fixed", "policy.")
        n = integer_at(required(p, "max_attempts", "policy.max_attempts"), "policy.max_attempts")
        delay = number_at(required(p, "delay", "policy.delay"), "policy.delay")
        return _made(lambda: policy_class.fixed(n, delay),
                     {"max_attempts": n, "initial_delay": delay}, "delay")
    if factory == "exponential":
        only_members(p, ("factory", "max_attempts", "initial_delay", "max_delay") + COPIES,
                     "a policy of factory exponential", "policy.")
        n = integer_at(required(p, "max_attempts", "policy.max_attempts"), "policy.max_attempts")
        initial = number_at(required(p, "initial_delay", "policy.initial_delay"),
                            "policy.initial_delay")
        cap = number_at(p["max_delay"], "policy.max_delay") if "max_delay" in p else 0.0
        return _made(lambda: policy_class.exponential(n, initial, cap),
                     {"max_attempts": n, "initial_delay": initial, "max_delay": cap})
    raise ProtocolError('policy.factory: must be "none", "fixed" or "exponential", '
                        f"got {_quote(factory)}")


def policy_from_json(p, policy_class=RetryPolicy):
    if not isinstance(p, dict):
        raise ProtocolError(f"policy: must be an object, got {_quote(p)}")
    # The base policy is made, and validated, first; then each copy, which
    # validates only its own argument.
    policy = base_policy(p, policy_class)
    if "give_up_after" in p:
        age = number_at(p["give_up_after"], "policy.give_up_after")
        try:
            policy = policy.give_up_after(age)
        except InvalidParameter as e:
            raise _core_rule("policy.give_up_after", age, e) from None
    if "with_jitter" in p:
        factor = number_at(p["with_jitter"], "policy.with_jitter")
        try:
            policy = policy.with_jitter(factor)
        except InvalidParameter as e:
            raise _core_rule("policy.with_jitter", factor, e) from None
    return policy


# The cost limit.

def gives_up(policy, attempt, message_age):
    limit = policy.max_message_age
    return attempt >= policy.max_attempts or (limit > 0.0 and message_age >= limit)


def within_cost_limit(policy, attempt, message_age):
    """Whether next_delay(attempt, message_age) is within the protocol's cost
    limit: it gives up, or its answer rests on at most 2^20 multiplications
    of the schedule loop, counting the early exits (docs/protocol.md, Limits)."""
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
        # == is the bit test here, at twice the speed of comparing packed
        # bytes (a far call walks 2^20 steps): running is neither zero (it
        # has returned) nor NaN (a finite start times a finite multiplier).
        if following == running:
            return k + 1 <= MAX_STEPS  # the multiplication that shows it counts
        running = following
    return False


def next_delay(policy, attempt, message_age, attempt_path, age_path, call):
    if not within_cost_limit(policy, attempt, message_age):
        raise ProtocolError(f"{attempt_path}: {attempt} needs more than 2^20 multiplications "
                            "on this policy, which does not settle within 2^20 steps")
    try:
        return call()
    except InvalidParameter as e:
        if e.parameter == "attempt":
            raise _core_rule(attempt_path, attempt, e) from None
        raise _core_rule(age_path, message_age, e) from None


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
        return next_delay(policy, attempt, age, "attempt", "message_age",
                          lambda: policy.next_delay(attempt, age, jitter=True, source=lambda: r))
    # Without jitter `r` is not read at all: neither required nor checked.
    return next_delay(policy, attempt, age, "attempt", "message_age",
                      lambda: policy.next_delay(attempt, age, jitter=False))


def answer_jittered(request, policy):
    delay = number_at(required(request, "delay", "delay"), "delay")
    r = draw_at(required(request, "r", "r"), "r")
    try:
        return policy.jittered_with_draw(delay, r)
    except InvalidParameter as e:
        raise _core_rule("delay", delay, e) from None


def answer_replay(request, policy):
    seed = integer_at(required(request, "seed", "seed"), "seed", 0, SEED_MAX)
    skip = integer_at(request["skip"], "skip", 0, MAX_REPLAY_SKIP) if "skip" in request else 0
    calls = required(request, "calls", "calls")
    if not isinstance(calls, list):
        raise ProtocolError(f"calls: must be an array of [attempt, message_age], got {_quote(calls)}")
    if len(calls) > MAX_REPLAY_CALLS:
        raise ProtocolError(f"calls: {len(calls)} calls is more than the protocol's 256")
    parsed = []
    for i, call in enumerate(calls):
        path = f"calls[{i}]"
        if not isinstance(call, list) or len(call) != 2:
            raise ProtocolError(f"{path}: must be [attempt, message_age], exactly two elements, "
                                f"got {_quote(call)}")
        parsed.append((integer_at(call[0], path + "[0] (attempt)"),
                       number_at(call[1], path + "[1] (message_age)")))
    source = RubyRandom(seed)
    for _ in range(skip):
        source()
    return [next_delay(policy, attempt, age, f"calls[{i}][0] (attempt)",
                       f"calls[{i}][1] (message_age)",
                       lambda attempt=attempt, age=age: policy.next_delay(attempt, age, source=source))
            for i, (attempt, age) in enumerate(parsed)]


def answer_sample(request, policy):
    """Draws from the port's default source (random.random), the way its
    users get them: jittered(delay) or next_delay(attempt), count calls in a
    row on this thread, so consecutive answers are consecutive calls; or,
    with `threads` above 1, that many threads calling at once."""
    count = integer_at(required(request, "count", "count"), "count", 1, INT64_MAX)
    if count > MAX_SAMPLE_COUNT:
        raise ProtocolError(f"count: {count} draws is more than the protocol's 65536")
    if ("delay" in request) == ("attempt" in request):
        raise ProtocolError("delay: missing, and so is attempt: give exactly one"
                            if "delay" not in request else
                            "attempt: not allowed with delay: give exactly one")
    if "delay" in request:
        delay = number_at(request["delay"], "delay")
    else:
        attempt = integer_at(request["attempt"], "attempt")
    threads = integer_at(request.get("threads", 1), "threads", 1, MAX_SAMPLE_THREADS)
    # The call's refusals (NaN, attempt < 1, the cost limit) come first, with
    # a draw given, so that the answer is all or nothing and every draw from
    # random.random is one of the count calls below.
    if "delay" in request:
        try:
            policy.jittered_with_draw(delay, 0.5)
        except InvalidParameter as e:
            raise _core_rule("delay", delay, e) from None
        draw = functools.partial(policy.jittered, delay)
    else:
        next_delay(policy, attempt, 0.0, "attempt", "message_age",
                   lambda: policy.next_delay(attempt, jitter=False))
        draw = functools.partial(policy.next_delay, attempt)
    if threads == 1:
        return [draw() for _ in range(count)]
    return drawn_at_once(draw, count, threads)


def drawn_at_once(draw, count, threads):
    """count calls of draw, made by `threads` threads released together, as
    a pool of the port's users would make them: no lock of ours around the
    draw, since whether random.random is safe to share is what `stats` asks.
    Thread i makes count // threads calls, one more if i < count % threads;
    the answer is thread 0's draws in order, then thread 1's, and so on."""
    shares = [[] for _ in range(threads)]
    errors = []
    start = threading.Barrier(threads)

    def share(i):
        calls = count // threads + (1 if i < count % threads else 0)
        try:
            start.wait()
            shares[i].extend(draw() for _ in range(calls))
        except Exception as e:  # noqa: BLE001 - answered as the request's error
            errors.append(e)

    pool = [threading.Thread(target=share, args=(i,)) for i in range(threads)]
    started = []
    try:
        for thread in pool:
            thread.start()
            started.append(thread)
    finally:
        if len(started) < threads:
            start.abort()  # those started would wait for the rest forever
        for thread in started:
            thread.join()
    if errors:
        raise errors[0]
    return [x for drawn in shares for x in drawn]


# Each op: the members a request of it takes, and its answer.
OPS = {
    "schedule": (("id", "op", "policy"), answer_schedule),
    "next_delay": (("id", "op", "policy", "attempt", "message_age", "jitter", "r"),
                   answer_next_delay),
    "jittered": (("id", "op", "policy", "delay", "r"), answer_jittered),
    "replay": (("id", "op", "policy", "seed", "skip", "calls"), answer_replay),
    "sample": (("id", "op", "policy", "delay", "attempt", "count", "threads"), answer_sample),
}
# A vector line is a request with its expected answer added; these ride along.
VECTOR_LINE_MEMBERS = ("expect", "expect_error")


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
            raise ProtocolError('op: must be "schedule", "next_delay", "jittered", "replay" or '
                                f'"sample", got {_quote(op)}')
        members, answer = OPS[op]
        only_members(request, members, f"a {op} request", also=VECTOR_LINE_MEMBERS)
        policy = policy_from_json(required(request, "policy", "policy"), policy_class)
        result = answer(request, policy)
        return f'{{"id":{_compact(request_id)},"ok":true,"result":{format_result(result)}}}'
    except ProtocolError as e:
        message = str(e)
    except Exception as e:  # noqa: BLE001 - a bug here must not end the conversation
        message = f"internal: {type(e).__name__}: {e}"
    return f'{{"id":{_compact(request_id)},"ok":false,"error":{json.dumps(message)}}}'


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
