package retrypolicy

import (
	crand "crypto/rand"
	"encoding/binary"
	mathbits "math/bits" // the tests' bits(x) helper has the name
	"math/rand"
	"sync"
)

// DefaultSource is the draw NextDelay's callers use outside replays: a
// math/rand generator over xoshiro256**, seeded from crypto/rand once per
// process. Not the package-level math/rand functions: before Go 1.20 their
// source starts from seed 1 in every process, so a fleet that failed
// together would draw the same jitter and come back together, which is what
// jitter is for.
var DefaultSource Source = newLockedSource()

// newLockedSource seeds all 256 bits of xoshiro256**'s state from
// crypto/rand. Not rand.NewSource: Go 1.19 keeps its seed modulo 2^31 - 1,
// so a fleet of 10,000 processes would have a 2% chance (about N^2/2^32)
// that two share a stream. A zero state, the one xoshiro256** never leaves,
// is a 2^-256 chance and not tested for.
func newLockedSource() Source {
	var seed [32]byte
	if _, err := crand.Read(seed[:]); err != nil {
		panic("retrypolicy: no seed for the default source: " + err.Error())
	}
	state := new(xoshiro256)
	for i := range state {
		state[i] = binary.LittleEndian.Uint64(seed[8*i:])
	}
	// rand.New keeps Float64 math/rand's, Int63 over 2^63 rounded to a
	// double: every draw a multiple of 2^-63, spaced 2^-53 from 1/2 up and
	// finer below, the contract's 53 bits.
	generator := rand.New(state)
	// A *rand.Rand, and the state under it, is not safe for concurrent use.
	var mu sync.Mutex
	return func() float64 {
		mu.Lock()
		defer mu.Unlock()
		return generator.Float64() // in [0, 1): Float64 never returns 1
	}
}

// xoshiro256 is Blackman and Vigna's xoshiro256**, a rand.Source64 of
// period 2^256 - 1: in a fleet of 10,000 processes drawing a billion each,
// two streams overlap with a chance of about N^2 n/2^256, 2^-200, where one
// 2^64 cycle (SplitMix64's) would give about 1 in 200.
type xoshiro256 [4]uint64

// Uint64 is the reference's next(): the output is the second word, scaled
// by 5, rotated by 7 and scaled by 9, before the state steps.
func (s *xoshiro256) Uint64() uint64 {
	result := mathbits.RotateLeft64(s[1]*5, 7) * 9
	t := s[1] << 17
	s[2] ^= s[0]
	s[3] ^= s[1]
	s[1] ^= s[2]
	s[0] ^= s[3]
	s[2] ^= t
	s[3] = mathbits.RotateLeft64(s[3], 45)
	return result
}

// Int63 drops the lowest of the 64 bits, which keeps it non-negative (every
// bit of xoshiro256** is sound); math/rand's Float64 divides it by 2^63.
func (s *xoshiro256) Int63() int64 {
	return int64(s.Uint64() >> 1)
}

// Seed is only there to make xoshiro256 a rand.Source: nothing calls it,
// since rand.New does not and the *rand.Rand never leaves newLockedSource;
// a 64-bit seed could not fill the 256 bits of state anyway.
func (s *xoshiro256) Seed(int64) {
	panic("retrypolicy: the default source is seeded from crypto/rand only")
}
