#!/usr/bin/env python3
"""Deliberately drifted Python ports, to prove `retry-policy check` catches
the refactors a maintainer of any port might plausibly make.

    python3 drifted.py closed-form    initial * multiplier ** (k - 1), one rounding
                                      instead of k - 1 (the contract's section 3)
    python3 drifted.py draw-on-null   draws before deciding to give up
    python3 drifted.py draw-on-zero   draws whenever the factor is positive, even
                                      for a zero delay (section 5: "a zero delay
                                      consumes nothing")

Each speaks the protocol exactly as adapter.py does; only the arithmetic or
the draws differ. The conformance tests expect `check` to exit 1 on each.

Two replay Ruby's generator right for its first 311 draws and wrong from
the 312th on, where MT19937's refill makes its last word (from word 0,
already replaced, and word 396); a replay of 256 calls from the seed never
gets there, only one that skips:

    python3 drifted.py twist-stops-short  the refill's loop stops one short:
                                          word 623 keeps its old value
    python3 drifted.py twist-old-word-0   word 623 made from word 0 as it was
                                          before the refill

One answers everything right and echoes ids wrong, as an adapter that reads
JSON numbers into doubles does (JavaScript's JSON.parse, a Python float(id)):

    python3 drifted.py ids-through-double  a number id echoed as float(id):
                                           9007199254740993 comes back
                                           9007199254740992.0

A wrong id is a broken adapter, not a wrong answer: `check` exits 2 on it,
naming the id it sent and the one it got.

The ports below have the right arithmetic and a wrong default source: the
draw their users get when they pass none. `check` injects r, so it passes
them all (that is the point); `retry-policy stats --impl` must reject each:

    python3 drifted.py one-sided      r in [0.5, 1) only: every delay lengthened
    python3 drifted.py narrowed       r in [0.25, 0.75): half the spread promised
    python3 drifted.py 32-bit         getrandbits(32) / 2**32: 32 bits, not 53
    python3 drifted.py repeats        a generator rebuilt from one seed every
                                      4096 calls, as one made per batch would be
    python3 drifted.py biased-to-0    r ** 1.1: shorter delays on average
    python3 drifted.py 31-bit         i * (1 / (2**31 - 1)): .NET Framework's and
                                      Mono's NextDouble, 31 bits on no binary grid
    python3 drifted.py clock-seconds  random.seed(int(time.time())) at start: a
                                      fleet started in one second shares a stream
"""

import json
import math
import pathlib
import random
import sys
import time

# The real Python port and its adapter, which every drift here starts from;
# this folder holds only the test doubles, apart from the ports users copy.
sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent / "adapters" / "python"))

import adapter  # noqa: E402
from retry_policy import RetryPolicy, RubyRandom  # noqa: E402


class ClosedForm(RetryPolicy):
    def _running(self, k):
        try:
            power = self.multiplier ** (k - 1)
        except OverflowError:  # Python raises where IEEE-754 says +inf
            power = math.inf
        return self.initial_delay * power

    def schedule(self):
        cap = self.max_delay
        return [cap if cap > 0.0 and self._running(k) > cap else self._running(k)
                for k in range(1, self.max_attempts)]

    def _entry(self, attempt):
        running = self._running(attempt)
        return self.max_delay if self.max_delay > 0.0 and running > self.max_delay else running


class DrawOnNull(RetryPolicy):
    def next_delay(self, attempt, message_age=0.0, jitter=True, source=None):
        if jitter and self.jitter_factor > 0.0 and source is not None:
            r = source()  # drawn up front: a null answer now spends one
            return super().next_delay(attempt, message_age, jitter, lambda: r)
        return super().next_delay(attempt, message_age, jitter, source)


class DrawOnZero(RetryPolicy):
    def _jitter_applies(self, delay):
        super()._jitter_applies(delay)  # keeps the NaN check
        return self.jitter_factor > 0.0


def with_default_source(default):
    """The port with `default` as its default source: the draw a caller gets
    who passes none. An injected source (check's r, a replay's generator) is
    used as is, so the arithmetic is still the port's own."""

    class DefaultSourceDrift(RetryPolicy):
        def next_delay(self, attempt, message_age=0.0, jitter=True, source=None):
            return super().next_delay(attempt, message_age, jitter, source or default)

        def jittered(self, delay, source=None):
            return super().jittered(delay, source or default)

    return DefaultSourceDrift


class Repeating:
    """random.Random(seed) rebuilt every `period` calls: a sequence that
    comes round again, and again."""

    def __init__(self, seed, period):
        self.seed, self.period, self.calls = seed, period, 0
        self.generator = random.Random(seed)

    def __call__(self):
        if self.calls % self.period == 0:
            self.generator = random.Random(self.seed)
        self.calls += 1
        return self.generator.random()


class TwistStopsShort(RubyRandom):
    """A refill whose loop ends at word 622: word 623 is never replaced."""

    __slots__ = ()

    def _twist(self):
        s = self._state
        for i in range(623):
            y = (s[i] & 0x80000000) | (s[i + 1] & 0x7FFFFFFF)
            s[i] = s[(i + 397) % 624] ^ (y >> 1) ^ (0x9908B0DF if y & 1 else 0)
        self._index = 0


class TwistOldWordZero(RubyRandom):
    """A refill that makes word 623 from word 0 as it was before the refill,
    as a port that reads a copy of the old state there does."""

    __slots__ = ()

    def _twist(self):
        s = self._state
        old_first = s[0]
        for i in range(624):
            following = old_first if i == 623 else s[i + 1]
            y = (s[i] & 0x80000000) | (following & 0x7FFFFFFF)
            s[i] = s[(i + 397) % 624] ^ (y >> 1) ^ (0x9908B0DF if y & 1 else 0)
        self._index = 0


def ids_through_double(value):
    """adapter._compact for an id, with a number made a float first, as an
    adapter that reads ids with float() does: json.dumps writes the double
    back, 9007199254740993 as 9007199254740992.0 and 2**64 as
    1.8446744073709552e+19."""
    if type(value) is int:  # not a bool, which is an int in Python but no number in JSON
        value = float(value)
    return json.dumps(value, separators=(",", ":"))


# Each wrong source, as the port's users would call it; the drift each test
# must see is in drifted.py's docstring and conformance/README.md.
SOURCE_DRIFTS = {
    "one-sided": lambda: 0.5 + random.random() / 2,
    "narrowed": lambda: 0.25 + random.random() / 2,
    "32-bit": lambda: random.getrandbits(32) / 2**32,
    "repeats": Repeating(seed=2024, period=4096),
    "biased-to-0": lambda: random.random() ** 1.1,
    # Mono's and .NET Framework's System.Random.NextDouble: an integer below
    # 2^31 - 1 times its reciprocal, 31 bits on no binary grid.
    "31-bit": lambda: random.randrange(2147483647) * (1.0 / 2147483647),
    # Seeded once at start with the clock in seconds, as random.seed(int(time.time()))
    # is: every process of a fleet started in one second draws one stream.
    "clock-seconds": random.Random(int(time.time())).random,
}

DRIFTS = {"closed-form": ClosedForm, "draw-on-null": DrawOnNull, "draw-on-zero": DrawOnZero}
DRIFTS.update({name: with_default_source(source) for name, source in SOURCE_DRIFTS.items()})

# Drifts of Ruby's generator, in place of the port's RubyRandom, which a
# replay makes.
TWIST_DRIFTS = {"twist-stops-short": TwistStopsShort, "twist-old-word-0": TwistOldWordZero}

# Drifts of the adapter's wire rather than the port: the function that writes
# an answer's id, in place of adapter._compact.
ID_DRIFTS = {"ids-through-double": ids_through_double}

if __name__ == "__main__":
    if len(sys.argv) != 2 or sys.argv[1] not in {**DRIFTS, **TWIST_DRIFTS, **ID_DRIFTS}:
        sys.exit(f"usage: drifted.py {{{'|'.join([*DRIFTS, *TWIST_DRIFTS, *ID_DRIFTS])}}}")
    if sys.argv[1] in TWIST_DRIFTS:
        adapter.RubyRandom = TWIST_DRIFTS[sys.argv[1]]  # answer_replay makes its generator with it
        adapter.serve(RetryPolicy)
    elif sys.argv[1] in ID_DRIFTS:
        adapter._compact = ID_DRIFTS[sys.argv[1]]  # answer_line writes every id with it
        adapter.serve(RetryPolicy)
    else:
        adapter.serve(DRIFTS[sys.argv[1]])
