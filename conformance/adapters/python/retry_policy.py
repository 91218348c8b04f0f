"""RetryPolicy: when to try again, and when to stop. The Python member of the
AceMQ retry-policy family.

A port of the Ruby class AceMQ::AMQP::RetryPolicy to Python 3, standard
library only, written from docs/contract.md. The arithmetic is a
cross-language contract: Python floats are IEEE-754 binary64, every operation
below is one rounded operation in the reference's order, and CPython never
fuses a*b+c, so this module agrees with Ruby, C++, Java, Go and .NET to the
bit. `retry-policy check --impl "python3 adapter.py"` proves it.

Like the C++ port, and unlike the reference, it validates: bad input raises
InvalidParameter (a ValueError) naming the parameter, the rule and the value.
"""

import math
import random

__all__ = ["InvalidParameter", "RetryPolicy", "RubyRandom"]

_MASK32 = 0xFFFFFFFF


class RubyRandom:
    """Replays Ruby's `srand(seed); rand` for 0 <= seed < 2**32.

    Ruby seeds MT19937 with init_genrand(seed) and makes each Float from two
    32-bit outputs a, b (genrand_res53). Python's own random.seed uses
    init_by_array instead, so its sequence differs: hence this class.
    Anchor: seed 42 gives 0.3745401188473625, 0.9507143064099162,
    0.7319939418114051.
    """

    __slots__ = ("_state", "_index")

    def __init__(self, seed):
        if not (isinstance(seed, int) and 0 <= seed <= _MASK32):
            raise ValueError(f"RubyRandom: seed must be in [0, 2^32 - 1], got {seed!r}")
        state = [0] * 624
        state[0] = seed
        for i in range(1, 624):
            previous = state[i - 1]
            state[i] = (1812433253 * (previous ^ (previous >> 30)) + i) & _MASK32
        self._state = state
        self._index = 624

    def _twist(self):
        s = self._state
        for i in range(624):
            y = (s[i] & 0x80000000) | (s[(i + 1) % 624] & 0x7FFFFFFF)
            s[i] = s[(i + 397) % 624] ^ (y >> 1) ^ (0x9908B0DF if y & 1 else 0)
        self._index = 0

    def _next32(self):
        if self._index >= 624:
            self._twist()
        y = self._state[self._index]
        self._index += 1
        y ^= y >> 11
        y ^= (y << 7) & 0x9D2C5680
        y ^= (y << 15) & 0xEFC60000
        y ^= y >> 18
        return y

    def __call__(self):
        # Exact in binary64: at most 53 significant bits, divided by 2^53.
        a = self._next32() >> 5
        b = self._next32() >> 6
        return (a * 67108864.0 + b) / 9007199254740992.0


def _show(value):
    return repr(value)


class InvalidParameter(ValueError):
    """A value the policy refuses, with which parameter, which rule and the
    value apart, so that a caller maps it to its own setting without parsing
    the message, which stays "<where>: <parameter> must be <rule>, got
    <value>" as every port of the family writes it."""

    def __init__(self, where, parameter, rule, value, shown=None):
        # "r must be" alone reads as a typo, so the message says "draw r", as the core's does.
        name = "draw r" if parameter == "r" else parameter
        super().__init__(f"{where}: {name} must be {rule}, "
                         f"got {_show(value) if shown is None else shown}")
        self.where, self.parameter, self.rule, self.value = where, parameter, rule, value


def _require_finite_non_negative(where, name, value):
    # -0.0 passes: it is not below zero, and its sign is kept as Ruby keeps it.
    if not math.isfinite(value) or value < 0.0:
        raise InvalidParameter(where, name, "finite and >= 0", value)


def _require_jitter_factor(where, factor):
    # Written so that NaN fails too: it is in no interval.
    if not (0.0 <= factor <= 1.0):
        raise InvalidParameter(where, "jitter_factor", "in [0, 1]", factor)


def _same_bits(x, y):
    # For the values a schedule holds (never NaN), == is a bit comparison
    # except for zeros, whose signs must match too: with multiplier -0.0 a
    # zero flips sign every step.
    return x == y and (x != 0.0 or math.copysign(1.0, x) == math.copysign(1.0, y))


class RetryPolicy:
    """An immutable retry policy, with the reference's defaults."""

    # schedule() refuses longer schedules: 2^24 floats is already 128 MiB.
    MAX_SCHEDULE_LENGTH = 1 << 24

    __slots__ = ("max_attempts", "initial_delay", "multiplier", "max_delay",
                 "jitter_factor", "max_message_age")

    def __init__(self, max_attempts=1, initial_delay=0.0, multiplier=2.0,
                 max_delay=0.0, jitter_factor=0.0, max_message_age=0.0):
        where = "RetryPolicy"
        if isinstance(max_attempts, bool) or not isinstance(max_attempts, int):
            raise InvalidParameter(where, "max_attempts", "an integer", max_attempts)
        if max_attempts < 1:
            raise InvalidParameter(where, "max_attempts", "at least 1", max_attempts, str(max_attempts))
        values = {
            "initial_delay": float(initial_delay),
            "multiplier": float(multiplier),
            "max_delay": float(max_delay),
            "jitter_factor": float(jitter_factor),
            "max_message_age": float(max_message_age),
        }
        for name in ("initial_delay", "multiplier", "max_delay"):
            _require_finite_non_negative(where, name, values[name])
        _require_jitter_factor(where, values["jitter_factor"])
        _require_finite_non_negative(where, "max_message_age", values["max_message_age"])
        object.__setattr__(self, "max_attempts", max_attempts)
        for name, value in values.items():
            object.__setattr__(self, name, value)

    def __setattr__(self, name, value):
        raise AttributeError("RetryPolicy is immutable")

    def __repr__(self):
        return (f"RetryPolicy(max_attempts={self.max_attempts}, "
                f"initial_delay={self.initial_delay!r}, multiplier={self.multiplier!r}, "
                f"max_delay={self.max_delay!r}, jitter_factor={self.jitter_factor!r}, "
                f"max_message_age={self.max_message_age!r})")

    # The factories.

    @classmethod
    def none(cls):
        """One delivery, no second chance."""
        return cls(max_attempts=1)

    @classmethod
    def fixed(cls, max_attempts, delay):
        """The same wait every time, with no jitter."""
        return cls(max_attempts=max_attempts, initial_delay=delay, multiplier=1.0)

    @classmethod
    def exponential(cls, max_attempts, initial_delay, max_delay=0.0):
        """Doubling delays with 20% jitter, which is the sane default."""
        return cls(max_attempts=max_attempts, initial_delay=initial_delay,
                   multiplier=2.0, max_delay=max_delay, jitter_factor=0.2)

    def _copy(self, **changes):
        fields = {name: getattr(self, name) for name in self.__slots__}
        fields.update(changes)
        return type(self)(**fields)

    def give_up_after(self, age):
        """A copy that abandons a message older than `age` seconds."""
        _require_finite_non_negative("give_up_after", "max_message_age", float(age))
        return self._copy(max_message_age=age)

    def with_jitter(self, factor):
        """A copy using a different jitter factor, between 0 and 1."""
        _require_jitter_factor("with_jitter", float(factor))
        return self._copy(jitter_factor=factor)

    # The arithmetic.

    def schedule(self):
        """The delays this policy would use, without jitter: max_attempts - 1."""
        if self.max_attempts - 1 > self.MAX_SCHEDULE_LENGTH:
            raise ValueError(f"schedule: {self.max_attempts - 1} entries is more than "
                             f"{self.MAX_SCHEDULE_LENGTH}")
        delays = []
        delay = self.initial_delay
        cap = self.max_delay
        for _ in range(self.max_attempts - 1):
            # The cap applies to each entry, never to the running value.
            delays.append(cap if cap > 0.0 and delay > cap else delay)
            delay *= self.multiplier
        return delays

    def _entry(self, attempt):
        """schedule()[attempt - 1], with early exits that keep the bits."""
        cap = self.max_delay
        multiplier = self.multiplier
        # With multiplier >= 1 the running value never shrinks, so once it
        # passes the cap every later entry is the cap.
        cap_is_final = cap > 0.0 and multiplier >= 1.0
        running = self.initial_delay
        for step in range(attempt - 1):
            if cap_is_final and running > cap:
                break
            if running == 0.0:
                # A zero stays a zero; under multiplier -0.0 its sign flips
                # once a step, so the parity of the steps left settles it.
                if math.copysign(1.0, multiplier) < 0 and (attempt - 1 - step) % 2 == 1:
                    running = -running
                break
            following = running * multiplier
            if _same_bits(following, running):
                break  # +inf, or a rounding fixed point: it stays put
            running = following
        return cap if cap > 0.0 and running > cap else running

    def _jitter_applies(self, delay):
        if math.isnan(delay):
            raise InvalidParameter("jittered", "delay", "a number, not NaN", delay)
        return self.jitter_factor > 0.0 and delay > 0.0

    def _apply_draw(self, delay, r):
        if not (0.0 <= r < 1.0):
            raise InvalidParameter("jitter", "r", "in [0, 1)", r)
        jittered = delay * (1 + (((r * 2) - 1) * self.jitter_factor))
        # The one NaN this arithmetic can make is +inf * 0 (factor 1, r 0):
        # a delay that was infinite stays infinite, as the contract decides.
        return delay if math.isnan(jittered) else jittered

    def _unjittered(self, attempt, message_age):
        if isinstance(attempt, bool) or not isinstance(attempt, int):
            raise InvalidParameter("next_delay", "attempt", "an integer", attempt)
        if attempt < 1:
            raise InvalidParameter("next_delay", "attempt", "at least 1", attempt, str(attempt))
        message_age = float(message_age)
        if math.isnan(message_age):
            raise InvalidParameter("next_delay", "message_age", "a number, not NaN", message_age)
        if attempt >= self.max_attempts:
            return None
        if self.max_message_age > 0.0 and message_age >= self.max_message_age:
            return None
        return self._entry(attempt)

    def next_delay(self, attempt, message_age=0.0, jitter=True, source=None):
        """How long to wait after `attempt` (from 1) failed, or None to give up.

        With jitter, the draw comes from `source` (any callable returning a
        float in [0, 1); random.random by default), and is taken only when
        jitter applies and the policy has not given up.
        """
        delay = self._unjittered(attempt, message_age)
        if delay is None:
            return None
        if jitter and self._jitter_applies(delay):
            delay = self._apply_draw(delay, (source or random.random)())
        # Ruby's [delay, 0.0].max keeps the first of equals: -0.0 stays -0.0.
        return 0.0 if delay < 0.0 else delay

    def jittered(self, delay, source=None):
        """The same delay, moved either side by up to jitter_factor."""
        delay = float(delay)
        if not self._jitter_applies(delay):
            return delay
        return self._apply_draw(delay, (source or random.random)())

    def jittered_with_draw(self, delay, r):
        """jittered with the draw given: the arithmetic alone, for replays."""
        return self.jittered(delay, lambda: r)
