package retrypolicy

// RubyRandom replays Ruby's srand(seed); rand for 0 <= seed < 2^32: MT19937
// seeded with init_genrand(seed), each draw made from two 32-bit outputs by
// genrand_res53 (docs/contract.md §5). Go's math/rand is another generator
// altogether. Anchor: seed 42 gives 0.3745401188473625, 0.9507143064099162,
// 0.7319939418114051.
type RubyRandom struct {
	state [624]uint32
	index int
}

// NewRubyRandom is srand(seed).
func NewRubyRandom(seed uint32) *RubyRandom {
	r := &RubyRandom{index: 624}
	r.state[0] = seed
	for i := 1; i < 624; i++ {
		prev := r.state[i-1]
		r.state[i] = 1812433253*(prev^(prev>>30)) + uint32(i)
	}
	return r
}

func (r *RubyRandom) twist() {
	s := &r.state
	for i := 0; i < 624; i++ {
		y := (s[i] & 0x80000000) | (s[(i+1)%624] & 0x7fffffff)
		next := s[(i+397)%624] ^ (y >> 1)
		if y&1 != 0 {
			next ^= 0x9908b0df
		}
		s[i] = next
	}
	r.index = 0
}

func (r *RubyRandom) next32() uint32 {
	if r.index >= 624 {
		r.twist()
	}
	y := r.state[r.index]
	r.index++
	y ^= y >> 11
	y ^= (y << 7) & 0x9d2c5680
	y ^= (y << 15) & 0xefc60000
	y ^= y >> 18
	return y
}

// Float64 is Kernel.rand: ((a >> 5) * 2^26 + (b >> 6)) / 2^53, every
// operation exact (at most 53 significant bits, divided by a power of two).
func (r *RubyRandom) Float64() float64 {
	a := r.next32() >> 5
	b := r.next32() >> 6
	return (float64(a)*67108864.0 + float64(b)) / 9007199254740992.0
}
