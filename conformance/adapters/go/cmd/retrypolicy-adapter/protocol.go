package main

import (
	"encoding/json"
	"errors"
	"math"
	"strconv"
	"strings"

	"acemq.example/retrypolicy"
)

// An error answer; the message names the field first ("<field>: <what>").
type protocolError struct{ message string }

func (e protocolError) Error() string { return e.message }

func fail(format string, args ...interface{}) error {
	if len(args) == 0 {
		return protocolError{format}
	}
	return protocolError{sprintf(format, args...)}
}

// ---- Fields ----------------------------------------------------------------

// number reads a number field: a JSON number, or "Infinity", "-Infinity",
// "NaN". A JSON number is read with one correct rounding (ParseFloat). An
// integer literal is read as an integer, so -0 is the integer zero, +0.0:
// ParseFloat("-0") would give -0.0.
func number(v interface{}, path string) (float64, error) {
	switch v := v.(type) {
	case json.Number:
		x, err := strconv.ParseFloat(string(v), 64)
		if err != nil {
			return 0, fail("%s: must be a number, got %s", path, quote(v))
		}
		if x == 0 && isIntegerLiteral(string(v)) {
			x = 0
		}
		return x, nil
	case string:
		switch v {
		case "Infinity":
			return math.Inf(1), nil
		case "-Infinity":
			return math.Inf(-1), nil
		case "NaN":
			return math.NaN(), nil
		}
	}
	return 0, fail(`%s: must be a number or "Infinity", "-Infinity", "NaN", got %s`, path, quote(v))
}

func isIntegerLiteral(text string) bool { return !strings.ContainsAny(text, ".eE") }

// integer reads an integer field: only a JSON number written without
// fraction or exponent (5, not 5.0 or 5e0), in [lowest, highest].
func integer(v interface{}, path string, lowest, highest int64) (int64, error) {
	n, isNumber := v.(json.Number)
	if !isNumber || !isIntegerLiteral(string(n)) {
		return 0, fail("%s: must be an integer in [%d, %d], written without fraction or exponent, got %s",
			path, lowest, highest, quote(v))
	}
	i, err := strconv.ParseInt(string(n), 10, 64)
	if err != nil || i < lowest || i > highest {
		return 0, fail("%s: must be in [%d, %d], got %s", path, lowest, highest, quote(v))
	}
	return i, nil
}

func required(object map[string]interface{}, key, path string) (interface{}, error) {
	v, present := object[key]
	if !present {
		return nil, fail("%s: missing", path)
	}
	return v, nil
}

// draw reads r, which must be in [0, 1) whenever it is required, even if
// no draw ends up taken.
func draw(v interface{}, path string) (float64, error) {
	r, err := number(v, path)
	if err != nil {
		return 0, err
	}
	if !(r >= 0 && r < 1) {
		return 0, fail("%s: must be in [0, 1), got %s", path, formatNumber(r))
	}
	return r, nil
}

// onlyMembers: any member not listed is an error naming it.
func onlyMembers(object map[string]interface{}, allowed []string, prefix, what string, also ...string) error {
	for key := range object {
		if !contains(allowed, key) && !contains(also, key) {
			return fail("%s%s: not a member of %s (its members: %s)", prefix, quote(key), what,
				strings.Join(allowed, ", "))
		}
	}
	return nil
}

func contains(names []string, name string) bool {
	for _, n := range names {
		if n == name {
			return true
		}
	}
	return false
}

// ---- The policy ------------------------------------------------------------

var (
	constructorFields = []string{"max_attempts", "initial_delay", "multiplier", "max_delay",
		"jitter_factor", "max_message_age", "give_up_after", "with_jitter"}
	noneFields        = []string{"factory", "give_up_after", "with_jitter"}
	fixedFields       = []string{"factory", "max_attempts", "delay", "give_up_after", "with_jitter"}
	exponentialFields = []string{"factory", "max_attempts", "initial_delay", "max_delay",
		"give_up_after", "with_jitter"}
)

// policyError puts the port's refusal after the request's field:
// "<path>: must be <rule>, got <value>".
func policyError(path string, err error) error {
	var refused *retrypolicy.InvalidParameterError
	if !errors.As(err, &refused) {
		return fail("%s: %s", path, err.Error())
	}
	return fail("%s: must be %s, got %s", path, refused.Rule, refused.Value)
}

// parameterOf is the parameter the port refused, or "" for another error.
func parameterOf(err error) string {
	var refused *retrypolicy.InvalidParameterError
	if errors.As(err, &refused) {
		return refused.Parameter
	}
	return ""
}

func basePolicy(p map[string]interface{}) (retrypolicy.RetryPolicy, error) {
	var none retrypolicy.RetryPolicy
	factory, isFactory := p["factory"]
	if !isFactory {
		if err := onlyMembers(p, constructorFields, "policy.", "a constructor policy"); err != nil {
			return none, err
		}
		o := retrypolicy.DefaultOptions()
		if v, present := p["max_attempts"]; present {
			n, err := integer(v, "policy.max_attempts", math.MinInt64, math.MaxInt64)
			if err != nil {
				return none, err
			}
			o.MaxAttempts = n
		}
		for _, field := range []struct {
			name string
			into *float64
		}{{"initial_delay", &o.InitialDelay}, {"multiplier", &o.Multiplier}, {"max_delay", &o.MaxDelay},
			{"jitter_factor", &o.JitterFactor}, {"max_message_age", &o.MaxMessageAge}} {
			if v, present := p[field.name]; present {
				x, err := number(v, "policy."+field.name)
				if err != nil {
					return none, err
				}
				*field.into = x
			}
		}
		policy, err := retrypolicy.New(o)
		if err != nil {
			return none, policyError("policy."+parameterOf(err), err)
		}
		return policy, nil
	}
	name, _ := factory.(string)
	switch name {
	case "none":
		if err := onlyMembers(p, noneFields, "policy.", "a policy of factory none"); err != nil {
			return none, err
		}
		return retrypolicy.None(), nil
	case "fixed", "exponential":
		fields, delayField := fixedFields, "delay"
		if name == "exponential" {
			fields, delayField = exponentialFields, "initial_delay"
		}
		if err := onlyMembers(p, fields, "policy.", "a policy of factory "+name); err != nil {
			return none, err
		}
		v, err := required(p, "max_attempts", "policy.max_attempts")
		if err != nil {
			return none, err
		}
		n, err := integer(v, "policy.max_attempts", math.MinInt64, math.MaxInt64)
		if err != nil {
			return none, err
		}
		if v, err = required(p, delayField, "policy."+delayField); err != nil {
			return none, err
		}
		delay, err := number(v, "policy."+delayField)
		if err != nil {
			return none, err
		}
		var policy retrypolicy.RetryPolicy
		if name == "fixed" {
			policy, err = retrypolicy.Fixed(n, delay)
		} else {
			maxDelay := 0.0
			if v, present := p["max_delay"]; present {
				if maxDelay, err = number(v, "policy.max_delay"); err != nil {
					return none, err
				}
			}
			policy, err = retrypolicy.Exponential(n, delay, maxDelay)
		}
		if err != nil {
			field := parameterOf(err)
			if field == "initial_delay" {
				field = delayField
			}
			return none, policyError("policy."+field, err)
		}
		return policy, nil
	}
	return none, fail(`policy.factory: must be "none", "fixed" or "exponential", got %s`, quote(factory))
}

// policyFrom makes the base policy (validated when made), then applies
// give_up_after and with_jitter in that order, each validating its own
// argument: a copy cannot repair an invalid base.
func policyFrom(v interface{}) (retrypolicy.RetryPolicy, error) {
	p, isObject := v.(map[string]interface{})
	if !isObject {
		return retrypolicy.RetryPolicy{}, fail("policy: must be an object, got %s", quote(v))
	}
	policy, err := basePolicy(p)
	if err != nil {
		return policy, err
	}
	if v, present := p["give_up_after"]; present {
		age, err := number(v, "policy.give_up_after")
		if err != nil {
			return policy, err
		}
		if policy, err = policy.GiveUpAfter(age); err != nil {
			return policy, policyError("policy.give_up_after", err)
		}
	}
	if v, present := p["with_jitter"]; present {
		factor, err := number(v, "policy.with_jitter")
		if err != nil {
			return policy, err
		}
		if policy, err = policy.WithJitter(factor); err != nil {
			return policy, policyError("policy.with_jitter", err)
		}
	}
	return policy, nil
}

// ---- The cost limit --------------------------------------------------------

// withinCostLimit: a call that gives up, or whose arguments are invalid,
// walks nothing; otherwise its answer must rest on at most 2^20
// multiplications of the schedule loop, counting the contract's early exits
// (docs/protocol.md, Limits).
func withinCostLimit(policy retrypolicy.RetryPolicy, attempt int64, messageAge float64) bool {
	if attempt < 1 || math.IsNaN(messageAge) || policy.GivesUp(attempt, messageAge) {
		return true
	}
	_, multiplications := policy.Walk(attempt, maxSteps)
	return multiplications <= maxSteps
}
