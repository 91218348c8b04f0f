package retrypolicy

import (
	"errors"
	"fmt"
	"math"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
)

// Anchors from docs/contract.md §6 (answers of the Ruby reference) and its
// decisions, each compared as bits.

func bits(x float64) uint64 { return math.Float64bits(x) }

// must is for policies the test knows to be valid.
func must(p RetryPolicy, err error) RetryPolicy {
	if err != nil {
		panic(err)
	}
	return p
}

func sameBits(t *testing.T, what string, got, want []float64) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %v, want %v", what, got, want)
	}
	for i := range got {
		if bits(got[i]) != bits(want[i]) {
			t.Errorf("%s[%d]: %v (%#x), want %v (%#x)", what, i, got[i], bits(got[i]), want[i], bits(want[i]))
		}
	}
}

var negativeZero = math.Copysign(0, -1)

func TestScheduleAnchors(t *testing.T) {
	p := must(Exponential(5, 0.5, 3))
	sameBits(t, "exponential(5, 0.5, 3)", p.Schedule(), []float64{0.5, 1, 2, 3})
	p = must(New(Options{MaxAttempts: 6, InitialDelay: 100, Multiplier: 0.5, MaxDelay: 30}))
	sameBits(t, "cap per entry", p.Schedule(), []float64{30, 30, 25, 12.5, 6.25})
	p = must(New(Options{MaxAttempts: 4, InitialDelay: 0.1, Multiplier: 3}))
	sameBits(t, "no closed form", p.Schedule(), []float64{0.1, 0.30000000000000004, 0.9000000000000001})
	p = must(New(Options{MaxAttempts: 6, InitialDelay: 7, Multiplier: negativeZero}))
	sameBits(t, "-0.0 multiplier", p.Schedule(), []float64{7, negativeZero, 0, negativeZero, 0})
	p = must(New(Options{MaxAttempts: 1100, InitialDelay: 1, Multiplier: 2}))
	s := p.Schedule()
	if !math.IsInf(s[len(s)-1], 1) || bits(s[1023]) != bits(math.Ldexp(1, 1023)) {
		t.Errorf("uncapped doubling: entry 1024 %v, last %v", s[1023], s[len(s)-1])
	}
}

func TestJitterAnchors(t *testing.T) {
	cases := []struct {
		factor, delay, r, want float64
	}{
		{0.2, 1.5, 0, 1.2000000000000002},
		// delay + delay*t3 and fma(delay, t3, delay) give ...253.
		{0.3, 0.7, 0x1.5876015e4d702p-6, 0.4988301759350254},
		// Fusing the scale, fma(r*2 - 1, f, 1), gives 2.4566517472899405:
		// what a Go compiler that contracts x*y + z (arm64's) would make of
		// the jitter written without float64(...) around the product.
		{0.3, 2, math.Float64frombits(0x3fec2d68c55c931e), 2.45665174728994},
		{0.5, 8, 1 - 0x1p-53, 12}, // the closed top of the range: a tie to even
		{1, math.Inf(1), 0, math.Inf(1)},
	}
	for _, c := range cases {
		p := must(New(Options{MaxAttempts: 1, Multiplier: 2, JitterFactor: c.factor}))
		got, err := p.JitteredWithDraw(c.delay, c.r)
		if err != nil || bits(got) != bits(c.want) {
			t.Errorf("jittered(%v) factor %v r %v: %v (%v), want %v", c.delay, c.factor, c.r, got, err, c.want)
		}
	}
}

func TestNextDelayAnchors(t *testing.T) {
	p := must(New(Options{MaxAttempts: 3, InitialDelay: 5, Multiplier: 2, JitterFactor: 1}))
	if d, ok, _ := p.NextDelay(1, 0, true, func() float64 { return 0 }); !ok || bits(d) != bits(0) {
		t.Errorf("factor 1, r 0: %v", d)
	}
	p = must(New(Options{MaxAttempts: 4, InitialDelay: 1, Multiplier: 0.5, MaxDelay: 0.3, JitterFactor: 0.5}))
	if d, _, _ := p.NextDelay(3, 0, true, func() float64 { return 0.999 }); bits(d) != bits(0.37475) {
		t.Errorf("jitter after the cap: %v", d)
	}
	// Ruby's [x, 0.0].max keeps -0.0, where math.Max(-0.0, 0) is +0.
	p = must(New(Options{MaxAttempts: 6, InitialDelay: 7, Multiplier: negativeZero}))
	if d, _, _ := p.NextDelay(2, 0, false, nil); bits(d) != bits(negativeZero) {
		t.Errorf("next_delay kept -0.0's sign: %v", d)
	}
	// Parity settles a zero under -0.0 at once, however far.
	p = must(New(Options{MaxAttempts: math.MaxInt64, InitialDelay: 1, Multiplier: negativeZero}))
	if d, ok, _ := p.NextDelay(math.MaxInt64-1, 0, false, nil); !ok || bits(d) != bits(negativeZero) {
		t.Errorf("far -0.0, odd steps: %v", d)
	}
	if d, ok, _ := p.NextDelay(math.MaxInt64-2, 0, false, nil); !ok || bits(d) != bits(0) {
		t.Errorf("far -0.0, even steps: %v", d)
	}
	fixed := must(Fixed(3, 1))
	if _, ok, _ := fixed.NextDelay(3, 0, false, nil); ok {
		t.Error("attempt >= max_attempts gives up")
	}
	aged := must(New(Options{MaxAttempts: 5, InitialDelay: 1, Multiplier: 2, MaxMessageAge: 60}))
	if _, ok, _ := aged.NextDelay(1, 60, false, nil); ok {
		t.Error("the age limit is inclusive")
	}
	if _, _, err := aged.NextDelay(0, 0, false, nil); err == nil {
		t.Error("attempt 0 is an error")
	}
}

func TestReplayAnchor(t *testing.T) {
	r := NewRubyRandom(42)
	sameBits(t, "srand(42)", []float64{r.Float64(), r.Float64(), r.Float64()},
		[]float64{0.3745401188473625, 0.9507143064099162, 0.7319939418114051})
	p := must(Exponential(5, 0.5, 0))
	source := NewRubyRandom(42)
	var got []float64
	for attempt := int64(1); attempt <= 4; attempt++ {
		d, _, _ := p.NextDelay(attempt, 0, true, source.Float64)
		got = append(got, d)
	}
	sameBits(t, "exponential(5, 0.5) after srand(42)", got,
		[]float64{0.4749080237694725, 1.1802857225639665, 2.1855951534491243, 4.157853574715259})
}

func TestValidation(t *testing.T) {
	for _, o := range []Options{
		{MaxAttempts: 0, Multiplier: 2},
		{MaxAttempts: 1, InitialDelay: -1, Multiplier: 2},
		{MaxAttempts: 1, Multiplier: math.NaN()},
		{MaxAttempts: 1, Multiplier: 2, MaxDelay: math.Inf(1)},
		{MaxAttempts: 1, Multiplier: 2, JitterFactor: 1.5},
		{MaxAttempts: 1, Multiplier: 2, MaxMessageAge: -1},
	} {
		if _, err := New(o); err == nil {
			t.Errorf("%+v accepted", o)
		}
	}
	if _, err := New(Options{MaxAttempts: 1, InitialDelay: negativeZero, Multiplier: 2}); err != nil {
		t.Errorf("-0.0 is not below zero: %v", err)
	}
}

// A refusal carries its parameter, rule and value apart, so the adapter
// names its own field without parsing the message.
func TestRefusalsAreTyped(t *testing.T) {
	jittery, _ := New(Options{MaxAttempts: 3, Multiplier: 2, JitterFactor: 0.5})
	_, giveUpErr := jittery.GiveUpAfter(-2)
	_, _, attemptErr := jittery.NextDelay(0, 0, false, nil)
	_, drawErr := jittery.JitteredWithDraw(1, 1)
	_, newErr := New(Options{MaxAttempts: 1, Multiplier: 2, JitterFactor: 1.5})
	for _, c := range []struct {
		err                    error
		parameter, rule, value string
	}{
		{newErr, "jitter_factor", "in [0, 1]", "1.5"},
		{giveUpErr, "max_message_age", "finite and >= 0", "-2"},
		{attemptErr, "attempt", "at least 1", "0"},
		{drawErr, "r", "in [0, 1)", "1"},
	} {
		var refused *InvalidParameterError
		if !errors.As(c.err, &refused) {
			t.Errorf("%v: not an *InvalidParameterError", c.err)
			continue
		}
		if refused.Parameter != c.parameter || refused.Rule != c.rule || refused.Value != c.value {
			t.Errorf("%v: got %+v", c.err, *refused)
		}
	}
}

func TestDefaultSourceDraws(t *testing.T) {
	for i := 0; i < 1000; i++ {
		if r := DefaultSource(); !(r >= 0 && r < 1) {
			t.Fatalf("draw %v outside [0, 1)", r)
		}
	}
}

// The generator under DefaultSource is xoshiro256**, to the bit: the
// reference implementation (prng.di.unimi.it) from state {1, 2, 3, 4}.
func TestXoshiro256KnownAnswers(t *testing.T) {
	s := xoshiro256{1, 2, 3, 4}
	for i, want := range []uint64{11520, 0, 1509978240, 1215971899390074240} {
		if got := s.Uint64(); got != want {
			t.Errorf("output %d: %d, want %d", i, got, want)
		}
	}
	// Int63 is the next output's top 63 bits: from the state a copy shares.
	next := s
	if got, want := s.Int63(), int64(next.Uint64()>>1); got != want {
		t.Errorf("Int63: %d, want %d", got, want)
	}
}

// The contract's 53 bits: 10,000 draws all on the 2^-63 grid, those from
// 1/2 up on the 2^-53 grid, and some below 1/2 finer than 2^-53 (a source
// of 53 bits or fewer would have none).
func TestDefaultSourceResolution(t *testing.T) {
	finer := 0
	for i := 0; i < 10000; i++ {
		r := DefaultSource()
		if scaled := r * (1 << 63); scaled != math.Trunc(scaled) {
			t.Fatalf("draw %v is not a multiple of 2^-63", r)
		}
		if r >= 0.5 && r*(1<<53) != math.Trunc(r*(1<<53)) {
			t.Fatalf("draw %v from 1/2 up is not a multiple of 2^-53", r)
		}
		if r*(1<<53) != math.Trunc(r*(1<<53)) {
			finer++
		}
	}
	if finer == 0 {
		t.Errorf("no draw finer than 2^-53 in 10,000: the source has 53 bits or fewer")
	}
}

// A fleet's processes must not share a stream: each draws its seed from
// crypto/rand. Two processes of this test binary print their first draws.
func TestDefaultSourceSeededPerProcess(t *testing.T) {
	if os.Getenv("RETRYPOLICY_FIRST_DRAWS") != "" {
		for i := 0; i < 4; i++ {
			fmt.Println(DefaultSource())
		}
		return
	}
	first := func() string {
		cmd := exec.Command(os.Args[0], "-test.run=^TestDefaultSourceSeededPerProcess$")
		cmd.Env = append(os.Environ(), "RETRYPOLICY_FIRST_DRAWS=1")
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("child: %v", err)
		}
		return strings.SplitN(string(out), "\nPASS", 2)[0]
	}
	if a, b := first(), first(); a == b {
		t.Errorf("two processes drew the same first draws:\n%s", a)
	}
}

// DefaultSource is shared by every goroutine of a process (a *rand.Rand is
// not safe to share; ours is locked): many at once get distinct draws, all
// in [0, 1). Under `go test -race` an unlocked source fails here.
func TestDefaultSourceFromManyGoroutines(t *testing.T) {
	const goroutines, each = 8, 10000
	draws := make([][]float64, goroutines)
	var wg sync.WaitGroup
	for g := range draws {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			for i := 0; i < each; i++ {
				draws[g] = append(draws[g], DefaultSource())
			}
		}(g)
	}
	wg.Wait()
	seen := make(map[float64]bool, goroutines*each)
	for _, share := range draws {
		for _, r := range share {
			if !(r >= 0 && r < 1) || seen[r] {
				t.Fatalf("draw %v outside [0, 1) or drawn twice", r)
			}
			seen[r] = true
		}
	}
}
