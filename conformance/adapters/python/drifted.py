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
"""

import math
import sys

import adapter
from retry_policy import RetryPolicy


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


DRIFTS = {"closed-form": ClosedForm, "draw-on-null": DrawOnNull, "draw-on-zero": DrawOnZero}

if __name__ == "__main__":
    if len(sys.argv) != 2 or sys.argv[1] not in DRIFTS:
        sys.exit(f"usage: drifted.py {{{'|'.join(DRIFTS)}}}")
    adapter.serve(DRIFTS[sys.argv[1]])
