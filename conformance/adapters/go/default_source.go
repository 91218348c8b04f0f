package retrypolicy

import (
	crand "crypto/rand"
	"encoding/binary"
	"math/rand"
	"sync"
)

// DefaultSource is the draw NextDelay's callers use outside replays: a
// math/rand generator seeded from crypto/rand once per process. Not the
// package-level math/rand functions: before Go 1.20 their source starts
// from seed 1 in every process, so a fleet that failed together would draw
// the same jitter and come back together, which is what jitter is for.
var DefaultSource Source = newLockedSource()

func newLockedSource() Source {
	var seed [8]byte
	if _, err := crand.Read(seed[:]); err != nil {
		panic("retrypolicy: no seed for the default source: " + err.Error())
	}
	generator := rand.New(rand.NewSource(int64(binary.LittleEndian.Uint64(seed[:]))))
	var mu sync.Mutex
	return func() float64 {
		mu.Lock()
		defer mu.Unlock()
		return generator.Float64() // in [0, 1): Float64 never returns 1
	}
}
