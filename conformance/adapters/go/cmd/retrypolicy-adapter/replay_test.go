package main

import (
	"encoding/json"
	"math"
	"strings"
	"testing"

	"acemq.example/retrypolicy"
)

// replay answers one replay of seed 42 with calls [[1,0],[2,0]] on a policy
// of jitter factor 1, whose delays 1 and 2 are 2r and 4r.
func replay(t *testing.T, skip string) answer {
	t.Helper()
	line := `{"id":1,"op":"replay","policy":{"max_attempts":3,"initial_delay":1,"jitter_factor":1},"seed":42,` +
		skip + `"calls":[[1,0],[2,0]]}`
	var a answer
	if err := json.Unmarshal(answerLine([]byte(line)), &a); err != nil {
		t.Fatalf("%s: %v", line, err)
	}
	return a
}

// afterSkipping is the port's own answer to that replay with skip draws of
// srand(42) discarded first.
func afterSkipping(t *testing.T, skip int) []float64 {
	t.Helper()
	policy, err := retrypolicy.New(retrypolicy.Options{MaxAttempts: 3, InitialDelay: 1, Multiplier: 2, JitterFactor: 1})
	if err != nil {
		t.Fatal(err)
	}
	source := retrypolicy.NewRubyRandom(42)
	for i := 0; i < skip; i++ {
		source.Float64()
	}
	var delays []float64
	for attempt := int64(1); attempt <= 2; attempt++ {
		d, _, _ := policy.NextDelay(attempt, 0, true, source.Float64)
		delays = append(delays, d)
	}
	return delays
}

func sameBitsAs(t *testing.T, what string, a answer, want []float64) {
	t.Helper()
	if !a.OK || len(a.Result) != len(want) {
		t.Fatalf("%s: %+v, want %v", what, a, want)
	}
	for i, x := range a.Result {
		if x == nil {
			t.Fatalf("%s: call %d gave null, want %v", what, i, want[i])
		}
		if math.Float64bits(*x) != math.Float64bits(want[i]) {
			t.Fatalf("%s: call %d gave %v, want %v", what, i, *x, want[i])
		}
	}
}

func TestReplaySkipAbsentIsZero(t *testing.T) {
	sameBitsAs(t, "no skip", replay(t, ``), afterSkipping(t, 0))
	sameBitsAs(t, "skip 0", replay(t, `"skip":0,`), afterSkipping(t, 0))
}

func TestReplaySkip312StartsAtThe313thDraw(t *testing.T) {
	a := replay(t, `"skip":312,`)
	sameBitsAs(t, "skip 312", a, afterSkipping(t, 312))
	// retry-policy serve's answer: the first draw after the state's first
	// refill, where a slip in the twist's wraparound would show.
	if got := *a.Result[0]; got != 0.05070148683091502 {
		t.Fatalf("skip 312: %v, want the core's 0.05070148683091502", got)
	}
	sameBitsAs(t, "skip 65536", replay(t, `"skip":65536,`), afterSkipping(t, 65536))
}

func TestReplaySkipOutOfRangeOrNotAnIntegerIsAnErrorNamingSkip(t *testing.T) {
	for _, skip := range []string{"65537", "-1", "2.0", `"0"`, "null", "true", "1e2"} {
		if a := replay(t, `"skip":`+skip+`,`); a.OK || !strings.HasPrefix(a.Error, "skip: ") {
			t.Fatalf("skip %s: %+v, want an error naming skip", skip, a)
		}
	}
}

func TestSkipIsAMemberOfReplayOnly(t *testing.T) {
	line := `{"id":1,"op":"schedule","policy":{},"skip":0}`
	var a answer
	if err := json.Unmarshal(answerLine([]byte(line)), &a); err != nil {
		t.Fatal(err)
	}
	if a.OK || !strings.HasPrefix(a.Error, `"skip": `) {
		t.Fatalf("%s: %+v, want an error naming skip", line, a)
	}
}
