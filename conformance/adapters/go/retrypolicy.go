// Package retrypolicy is the Go member of the AceMQ retry-policy family: a
// port of the Ruby class AceMQ::AMQP::RetryPolicy, standard library only,
// written from docs/contract.md. The arithmetic is a cross-language
// contract: every operation below is one binary64 operation, rounded to
// nearest, in the reference's order, so this package agrees with Ruby, C++,
// Java, Python and .NET to the bit. `retry-policy check --impl
// ./retrypolicy-adapter` proves it.
//
// Like the C++ port, and unlike the reference, it validates: bad input is an
// error naming the parameter and the value.
package retrypolicy

import (
	"fmt"
	"math"
	"strconv"
)

// Options are the six parameters, by the reference's names. The zero value
// is not the reference's default (multiplier 2, max_attempts 1): use
// DefaultOptions.
type Options struct {
	MaxAttempts   int64   // total deliveries, including the first
	InitialDelay  float64 // seconds before the second attempt
	Multiplier    float64 // what the delay is multiplied by each time
	MaxDelay      float64 // the ceiling in seconds; 0 means no cap
	JitterFactor  float64 // how far a delay may move either side, 0 to 1
	MaxMessageAge float64 // give up on anything older; 0 means never
}

// DefaultOptions are the reference's defaults.
func DefaultOptions() Options {
	return Options{MaxAttempts: 1, Multiplier: 2}
}

// RetryPolicy is immutable: the copies return new values.
type RetryPolicy struct {
	o Options
}

// A Source yields a uniform draw in [0, 1): Ruby's Kernel.rand.
type Source func() float64

func show(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }

// InvalidParameterError is every refusal of the policy: which parameter,
// which rule and the value travel apart, so a caller maps a bad setting to
// its own configuration key without parsing the message.
type InvalidParameterError struct {
	Where     string // the call that refused: "RetryPolicy", "next_delay", ...
	Parameter string // the contract's name: "max_attempts", "attempt", "r", ...
	Rule      string // what it must be: "in [0, 1]"
	Value     string // the refused value, as text
}

func (e *InvalidParameterError) Error() string {
	name := e.Parameter
	if name == "r" {
		name = "draw r" // "r must be" alone reads as a typo, as the core says too
	}
	return fmt.Sprintf("%s: %s must be %s, got %s", e.Where, name, e.Rule, e.Value)
}

func reject(where, name, value, rule string) error {
	return &InvalidParameterError{Where: where, Parameter: name, Rule: rule, Value: value}
}

// -0.0 passes: it is not below zero, and its sign is kept as Ruby keeps it.
func finiteNonNegative(where, name string, x float64) error {
	if math.IsInf(x, 0) || math.IsNaN(x) || x < 0 {
		return reject(where, name, show(x), "finite and >= 0")
	}
	return nil
}

// Written so that NaN fails too: it is in no interval.
func jitterFactorOK(where string, f float64) error {
	if !(f >= 0 && f <= 1) {
		return reject(where, "jitter_factor", show(f), "in [0, 1]")
	}
	return nil
}

// New makes a policy, refusing the first invalid parameter in the
// reference's order.
func New(o Options) (RetryPolicy, error) {
	const where = "RetryPolicy"
	if o.MaxAttempts < 1 {
		return RetryPolicy{}, reject(where, "max_attempts", strconv.FormatInt(o.MaxAttempts, 10), "at least 1")
	}
	for _, p := range []struct {
		name  string
		value float64
	}{{"initial_delay", o.InitialDelay}, {"multiplier", o.Multiplier}, {"max_delay", o.MaxDelay}} {
		if err := finiteNonNegative(where, p.name, p.value); err != nil {
			return RetryPolicy{}, err
		}
	}
	if err := jitterFactorOK(where, o.JitterFactor); err != nil {
		return RetryPolicy{}, err
	}
	if err := finiteNonNegative(where, "max_message_age", o.MaxMessageAge); err != nil {
		return RetryPolicy{}, err
	}
	return RetryPolicy{o}, nil
}

// None is one delivery, no second chance.
func None() RetryPolicy { return RetryPolicy{DefaultOptions()} }

// Fixed is the same wait every time, with no jitter.
func Fixed(maxAttempts int64, delay float64) (RetryPolicy, error) {
	return New(Options{MaxAttempts: maxAttempts, InitialDelay: delay, Multiplier: 1})
}

// Exponential doubles the delay, with 20% jitter; maxDelay 0 means no cap.
func Exponential(maxAttempts int64, initialDelay, maxDelay float64) (RetryPolicy, error) {
	return New(Options{MaxAttempts: maxAttempts, InitialDelay: initialDelay, Multiplier: 2,
		MaxDelay: maxDelay, JitterFactor: 0.2})
}

// GiveUpAfter is a copy that abandons a message older than age seconds.
func (p RetryPolicy) GiveUpAfter(age float64) (RetryPolicy, error) {
	if err := finiteNonNegative("give_up_after", "max_message_age", age); err != nil {
		return RetryPolicy{}, err
	}
	o := p.o
	o.MaxMessageAge = age
	return New(o)
}

// WithJitter is a copy with another jitter factor, in [0, 1].
func (p RetryPolicy) WithJitter(factor float64) (RetryPolicy, error) {
	if err := jitterFactorOK("with_jitter", factor); err != nil {
		return RetryPolicy{}, err
	}
	o := p.o
	o.JitterFactor = factor
	return New(o)
}

// Options returns the policy's parameters.
func (p RetryPolicy) Options() Options { return p.o }

func (p RetryPolicy) capped(d float64) float64 {
	if p.o.MaxDelay > 0 && d > p.o.MaxDelay {
		return p.o.MaxDelay
	}
	return d
}

// Schedule is the delays without jitter: MaxAttempts - 1 of them. The cap
// applies to each entry, never to the running value, and the running value
// is rounded after every multiplication (no closed form: initial *
// multiplier^k differs in the last bit).
func (p RetryPolicy) Schedule() []float64 {
	delays := make([]float64, 0, p.o.MaxAttempts-1)
	d := p.o.InitialDelay
	for i := int64(1); i < p.o.MaxAttempts; i++ {
		delays = append(delays, p.capped(d))
		d = d * p.o.Multiplier
	}
	return delays
}

// Walk is the schedule's loop from InitialDelay up to the running value
// before entry `attempt`, with the contract's early exits, which keep the
// bits: the running value has passed the cap with multiplier >= 1 (it can
// only grow), is a zero (only its sign can change, by parity), or maps to
// the same bits (+Inf, or a rounding fixed point). It returns the running
// value and how many multiplications the answer rests on; it stops counting
// after limit (returning limit + 1), so a caller can bound the walk.
func (p RetryPolicy) Walk(attempt, limit int64) (running float64, multiplications int64) {
	m, c := p.o.Multiplier, p.o.MaxDelay
	capIsFinal := c > 0 && m >= 1
	d := p.o.InitialDelay
	for k := int64(0); k < attempt-1; k++ {
		if k > limit {
			return d, limit + 1
		}
		if capIsFinal && d > c {
			return d, k
		}
		if d == 0 {
			// A zero stays a zero; under multiplier -0.0 its sign flips once
			// a step, so the parity of the steps left settles it.
			if math.Signbit(m) && (attempt-1-k)%2 == 1 {
				d = -d
			}
			return d, k
		}
		next := d * m
		if math.Float64bits(next) == math.Float64bits(d) {
			return d, k + 1
		}
		d = next
	}
	return d, attempt - 1
}

// GivesUp says whether NextDelay gives up: the last attempt has been made,
// or the message is at least MaxMessageAge old (0 means never).
func (p RetryPolicy) GivesUp(attempt int64, messageAge float64) bool {
	return attempt >= p.o.MaxAttempts || (p.o.MaxMessageAge > 0 && messageAge >= p.o.MaxMessageAge)
}

func checkCall(attempt int64, messageAge float64) error {
	if attempt < 1 {
		return reject("next_delay", "attempt", strconv.FormatInt(attempt, 10), "at least 1")
	}
	if math.IsNaN(messageAge) {
		return reject("next_delay", "message_age", show(messageAge), "a number, not NaN")
	}
	return nil
}

// Entry is schedule entry `attempt` (from 1), unjittered and uncapped at
// zero; ok is false when the policy gives up. Arguments are checked before
// the give-up test.
func (p RetryPolicy) Entry(attempt int64, messageAge float64) (delay float64, ok bool, err error) {
	if err := checkCall(attempt, messageAge); err != nil {
		return 0, false, err
	}
	if p.GivesUp(attempt, messageAge) {
		return 0, false, nil
	}
	running, _ := p.Walk(attempt, math.MaxInt64-1)
	return p.capped(running), true, nil
}

// atLeastZero is Ruby's [delay, 0.0].max, which returns the first of two
// equal values, so -0.0 stays -0.0. Not math.Max, nor Go 1.21's max: both
// return +0 for (-0.0, 0.0).
func atLeastZero(delay float64) float64 {
	if delay < 0 {
		return 0
	}
	return delay
}

// NextDelay is how long to wait after `attempt` (from 1) failed; ok is false
// to give up. With jitter, one draw is taken from source, only when jitter
// applies and the policy has not given up.
func (p RetryPolicy) NextDelay(attempt int64, messageAge float64, jitter bool, source Source) (delay float64, ok bool, err error) {
	delay, ok, err = p.Entry(attempt, messageAge)
	if err != nil || !ok {
		return 0, ok, err
	}
	if jitter && p.jitterApplies(delay) {
		if delay, err = p.applyDraw(delay, source()); err != nil {
			return 0, false, err
		}
	}
	return atLeastZero(delay), true, nil
}

func (p RetryPolicy) jitterApplies(delay float64) bool {
	return p.o.JitterFactor > 0 && delay > 0
}

// applyDraw is delay * (1 + (((r * 2) - 1) * jitter_factor)), each operation
// rounded in that order. The Go spec lets a compiler fuse x*y + z into one
// FMA (arm64's does), even across statements; an explicit float64(...)
// conversion forces the rounding, so the product is converted before the
// add.
func (p RetryPolicy) applyDraw(delay, r float64) (float64, error) {
	if !(r >= 0 && r < 1) {
		return 0, reject("jitter", "r", show(r), "in [0, 1)")
	}
	spread := float64(float64(r*2)-1) * p.o.JitterFactor
	jittered := delay * (1 + float64(spread))
	// The one NaN this arithmetic can make is +Inf * 0 (factor 1, r <=
	// 2^-55): a delay that was infinite stays infinite, as the contract
	// decides.
	if math.IsNaN(jittered) {
		return delay, nil
	}
	return jittered, nil
}

// Jittered is the delay moved either side by up to JitterFactor, drawing
// from source only when jitter applies (a positive factor and delay).
func (p RetryPolicy) Jittered(delay float64, source Source) (float64, error) {
	if math.IsNaN(delay) {
		return 0, reject("jittered", "delay", show(delay), "a number, not NaN")
	}
	if !p.jitterApplies(delay) {
		return delay, nil
	}
	return p.applyDraw(delay, source())
}

// JitteredWithDraw is Jittered with the draw given.
func (p RetryPolicy) JitteredWithDraw(delay, r float64) (float64, error) {
	return p.Jittered(delay, func() float64 { return r })
}
