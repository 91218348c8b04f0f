package main

import (
	"fmt"
	"math"
	"strings"
	"sync"

	"acemq.example/retrypolicy"
)

// A result: one number or null, or an array of them.
type result struct {
	array  bool
	values []float64
	null   []bool // null[i]: values[i] is "give up"
}

func one(x float64) result                      { return result{values: []float64{x}, null: []bool{false}} }
func giveUp() result                            { return result{values: []float64{0}, null: []bool{true}} }
func many(xs []float64) result                  { return result{array: true, values: xs, null: make([]bool, len(xs))} }
func sprintf(f string, a ...interface{}) string { return fmt.Sprintf(f, a...) }

func (r result) write(out *strings.Builder) {
	if r.array {
		out.WriteByte('[')
	}
	for i, x := range r.values {
		if i > 0 {
			out.WriteByte(',')
		}
		if r.null[i] {
			out.WriteString("null")
		} else {
			out.WriteString(formatNumber(x))
		}
	}
	if r.array {
		out.WriteByte(']')
	}
}

// An op: the members a request of it takes (besides id, op and policy) and
// its answer; a new op is one more entry here.
type op struct {
	members []string
	answer  func(request map[string]interface{}, policy retrypolicy.RetryPolicy) (result, error)
}

var ops = map[string]op{
	"schedule":   {nil, answerSchedule},
	"next_delay": {[]string{"attempt", "message_age", "jitter", "r"}, answerNextDelay},
	"jittered":   {[]string{"delay", "r"}, answerJittered},
	"replay":     {[]string{"seed", "skip", "calls"}, answerReplay},
	"sample":     {[]string{"delay", "attempt", "count", "threads"}, answerSample},
}

// A vector line is a request with its expected answer added; these ride
// along and are never read.
var vectorLineMembers = []string{"expect", "expect_error"}

func answerSchedule(_ map[string]interface{}, policy retrypolicy.RetryPolicy) (result, error) {
	if entries := policy.Options().MaxAttempts - 1; entries > maxScheduleEntries {
		return result{}, fail("policy.max_attempts: a schedule of %d entries is more than the protocol's 65536", entries)
	}
	return many(policy.Schedule()), nil
}

// call is one next_delay: the cost limit first, then the port, whose
// refusals (attempt < 1, NaN age; checked before the give-up test) name the
// request's fields.
func call(policy retrypolicy.RetryPolicy, attempt int64, age float64, attemptPath, agePath string,
	jitter bool, source retrypolicy.Source) (float64, bool, error) {
	if !withinCostLimit(policy, attempt, age) {
		return 0, false, fail("%s: %d needs more than 2^20 multiplications on this policy, "+
			"which does not settle within 2^20 steps", attemptPath, attempt)
	}
	delay, ok, err := policy.NextDelay(attempt, age, jitter, source)
	if err != nil {
		if parameterOf(err) == "attempt" {
			return 0, false, policyError(attemptPath, err)
		}
		return 0, false, fail("%s: must be a number, not NaN", agePath)
	}
	return delay, ok, nil
}

func answerNextDelay(request map[string]interface{}, policy retrypolicy.RetryPolicy) (result, error) {
	v, err := required(request, "attempt", "attempt")
	if err != nil {
		return result{}, err
	}
	attempt, err := integer(v, "attempt", math.MinInt64, math.MaxInt64)
	if err != nil {
		return result{}, err
	}
	age := 0.0
	if v, present := request["message_age"]; present {
		if age, err = number(v, "message_age"); err != nil {
			return result{}, err
		}
	}
	jitter := true
	if v, present := request["jitter"]; present {
		b, isBool := v.(bool) // null is not absent: it is an error too
		if !isBool {
			return result{}, fail("jitter: must be true or false, got %s", quote(v))
		}
		jitter = b
	}
	var source retrypolicy.Source
	if jitter {
		// Without jitter r is not read at all: neither required nor checked.
		v, err := required(request, "r", "r")
		if err != nil {
			return result{}, err
		}
		r, err := draw(v, "r")
		if err != nil {
			return result{}, err
		}
		source = func() float64 { return r }
	}
	delay, ok, err := call(policy, attempt, age, "attempt", "message_age", jitter, source)
	if err != nil {
		return result{}, err
	}
	if !ok {
		return giveUp(), nil
	}
	return one(delay), nil
}

func answerJittered(request map[string]interface{}, policy retrypolicy.RetryPolicy) (result, error) {
	v, err := required(request, "delay", "delay")
	if err != nil {
		return result{}, err
	}
	delay, err := number(v, "delay")
	if err != nil {
		return result{}, err
	}
	if v, err = required(request, "r", "r"); err != nil {
		return result{}, err
	}
	r, err := draw(v, "r")
	if err != nil {
		return result{}, err
	}
	jittered, err := policy.JitteredWithDraw(delay, r)
	if err != nil {
		return result{}, fail("delay: must be a number, not NaN")
	}
	return one(jittered), nil
}

func answerReplay(request map[string]interface{}, policy retrypolicy.RetryPolicy) (result, error) {
	v, err := required(request, "seed", "seed")
	if err != nil {
		return result{}, err
	}
	seed, err := integer(v, "seed", 0, maxSeed)
	if err != nil {
		return result{}, err
	}
	skip := int64(0)
	if v, present := request["skip"]; present {
		if skip, err = integer(v, "skip", 0, maxReplaySkip); err != nil {
			return result{}, err
		}
	}
	v, err = required(request, "calls", "calls")
	if err != nil {
		return result{}, err
	}
	calls, isArray := v.([]interface{})
	if !isArray {
		return result{}, fail("calls: must be an array of [attempt, message_age], got %s", quote(v))
	}
	if len(calls) > maxReplayCalls {
		return result{}, fail("calls: %d calls is more than the protocol's 256", len(calls))
	}
	type parsedCall struct {
		attempt int64
		age     float64
	}
	parsed := make([]parsedCall, 0, len(calls))
	for i, c := range calls {
		path := sprintf("calls[%d]", i)
		pair, isArray := c.([]interface{})
		if !isArray || len(pair) != 2 {
			return result{}, fail("%s: must be [attempt, message_age], exactly two elements, got %s", path, quote(c))
		}
		attempt, err := integer(pair[0], path+"[0] (attempt)", math.MinInt64, math.MaxInt64)
		if err != nil {
			return result{}, err
		}
		age, err := number(pair[1], path+"[1] (message_age)")
		if err != nil {
			return result{}, err
		}
		parsed = append(parsed, parsedCall{attempt, age})
	}
	// One generator for the whole replay; a call that gives up or is not
	// jittered draws nothing from it.
	source := retrypolicy.NewRubyRandom(uint32(seed))
	// Skipped draws let a replay reach the draws after MT19937's refills.
	for i := int64(0); i < skip; i++ {
		source.Float64()
	}
	out := result{array: true}
	for i, c := range parsed {
		path := sprintf("calls[%d]", i)
		delay, ok, err := call(policy, c.attempt, c.age, path+"[0] (attempt)", path+"[1] (message_age)",
			true, source.Float64)
		if err != nil {
			return result{}, err
		}
		out.values = append(out.values, delay)
		out.null = append(out.null, !ok)
	}
	return out, nil
}

// answerSample draws from the port's default source, retrypolicy.DefaultSource,
// as the port's users get it: Jittered(delay) or NextDelay(attempt), count
// calls in a row, so consecutive answers are consecutive calls; or, with
// threads above 1, that many goroutines calling at once (drawnAtOnce).
func answerSample(request map[string]interface{}, policy retrypolicy.RetryPolicy) (result, error) {
	v, err := required(request, "count", "count")
	if err != nil {
		return result{}, err
	}
	count, err := integer(v, "count", 1, math.MaxInt64)
	if err != nil {
		return result{}, err
	}
	if count > maxSampleCount {
		return result{}, fail("count: %d draws is more than the protocol's 65536", count)
	}
	delayValue, hasDelay := request["delay"]
	attemptValue, hasAttempt := request["attempt"]
	if hasDelay == hasAttempt {
		if !hasDelay {
			return result{}, fail("delay: missing, and so is attempt: give exactly one")
		}
		return result{}, fail("attempt: not allowed with delay: give exactly one")
	}
	var delay float64
	var attempt int64
	if hasDelay {
		delay, err = number(delayValue, "delay")
	} else {
		attempt, err = integer(attemptValue, "attempt", math.MinInt64, math.MaxInt64)
	}
	if err != nil {
		return result{}, err
	}
	threads := int64(1)
	if v, present := request["threads"]; present {
		if threads, err = integer(v, "threads", 1, maxSampleThreads); err != nil {
			return result{}, err
		}
	}
	// The call's refusals (NaN, attempt < 1, the cost limit) come first, with
	// a draw given, so the answer is all or nothing and every draw from
	// DefaultSource is one of the count calls.
	if hasDelay {
		if _, err := policy.JitteredWithDraw(delay, 0.5); err != nil {
			return result{}, fail("delay: must be a number, not NaN")
		}
	} else if _, _, err := call(policy, attempt, 0, "attempt", "message_age", false, nil); err != nil {
		return result{}, err
	}
	one := func() (float64, bool, error) {
		if hasDelay {
			jittered, err := policy.Jittered(delay, retrypolicy.DefaultSource)
			return jittered, true, err
		}
		return call(policy, attempt, 0, "attempt", "message_age", true, retrypolicy.DefaultSource)
	}
	out := result{array: true, values: make([]float64, count), null: make([]bool, count)}
	if threads == 1 {
		for i := range out.values {
			d, ok, err := one()
			if err != nil {
				return result{}, err
			}
			out.values[i], out.null[i] = d, !ok
		}
		return out, nil
	}
	return out, drawnAtOnce(out, int(threads), one)
}

// drawnAtOnce fills out with calls of one made by that many goroutines,
// released together, as a pool of the port's users would make them: no lock
// of ours around the draw, since whether DefaultSource is safe to share is
// what `stats` asks. Goroutine i makes len/threads calls, one more if
// i < len%threads, into its own run of out: goroutine 0's draws in order,
// then goroutine 1's, and so on.
func drawnAtOnce(out result, threads int, one func() (float64, bool, error)) error {
	count := len(out.values)
	errs := make([]error, threads)
	var ready, done sync.WaitGroup
	start := make(chan struct{})
	ready.Add(threads)
	done.Add(threads)
	begin := 0
	for t := 0; t < threads; t++ {
		size := count / threads
		if t < count%threads {
			size++
		}
		go func(t, begin, end int) {
			defer done.Done()
			ready.Done()
			<-start
			for i := begin; i < end; i++ {
				d, ok, err := one()
				if err != nil {
					errs[t] = err
					return
				}
				out.values[i], out.null[i] = d, !ok
			}
		}(t, begin, begin+size)
		begin += size
	}
	ready.Wait() // every goroutine started, then all released at once
	close(start)
	done.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// answerLine answers one request line (without its LF).
func answerLine(line []byte) []byte {
	value, err := parseRequest(line)
	if err != nil {
		return errorAnswer(nil, err.Error())
	}
	request, isObject := value.(map[string]interface{})
	if !isObject {
		return errorAnswer(nil, "line: must be a JSON object, got "+quote(value))
	}
	id := request["id"] // nil when absent: echoed as null
	res, err := answerRequest(request)
	if err != nil {
		return errorAnswer(id, err.Error())
	}
	var out strings.Builder
	out.WriteString(`{"id":`)
	writeJSON(&out, id)
	out.WriteString(`,"ok":true,"result":`)
	res.write(&out)
	out.WriteByte('}')
	return []byte(out.String())
}

func answerRequest(request map[string]interface{}) (result, error) {
	v, err := required(request, "op", "op")
	if err != nil {
		return result{}, err
	}
	name, _ := v.(string)
	o, known := ops[name]
	if !known {
		return result{}, fail(`op: must be "schedule", "next_delay", "jittered", "replay" or "sample", got %s`, quote(v))
	}
	members := append([]string{"id", "op", "policy"}, o.members...)
	if err := onlyMembers(request, members, "", "a "+name+" request", vectorLineMembers...); err != nil {
		return result{}, err
	}
	if v, err = required(request, "policy", "policy"); err != nil {
		return result{}, err
	}
	policy, err := policyFrom(v)
	if err != nil {
		return result{}, err
	}
	return o.answer(request, policy)
}
