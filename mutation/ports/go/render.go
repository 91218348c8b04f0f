package main

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
)

func itoa(n int) string { return strconv.Itoa(n) }

// A site is one switch: a host and the mutants that live there, whose ids
// are consecutive.
type site struct {
	kind       hostKind
	start, end int
	cands      []*candidate
	lo, hi     int  // for hostDispatch: the function's ids
	body       body // and its body
}

// A span of the generated text and the mutants a compiler error there is
// blamed on.
type span struct {
	start, end int
	cands      []*candidate
}

type rendered struct {
	text  string
	arms  []span // each mutant's own arm
	wraps []span // each site's whole switch
}

// number gives the mutants still in ids, site by site in source order, and
// returns each file's sites.
func (p *program) number() (map[*sourceFile][]*site, int) {
	sites := map[*sourceFile][]*site{}
	next := 1
	for _, f := range p.files {
		byHost := map[[3]int]*site{}
		var list []*site
		for _, c := range f.cands {
			if c.drop != "" {
				continue
			}
			key := [3]int{c.hostStart, c.hostEnd, int(c.kind)}
			s := byHost[key]
			if s == nil {
				s = &site{kind: c.kind, start: c.hostStart, end: c.hostEnd}
				byHost[key] = s
				list = append(list, s)
			}
			s.cands = append(s.cands, c)
		}
		sortSites(list)
		for _, s := range list {
			for _, c := range s.cands {
				c.id = next
				next++
			}
		}
		// A function with switches first asks whether any of them can
		// matter: with no trace and none of its own mutants active, it
		// runs a verbatim copy of its original body, so the switches cost
		// one test on entry, wherever they are.
		for _, body := range f.bodies {
			lo, hi := 0, 0
			for _, s := range list {
				if s.start >= body.start && s.end <= body.end {
					if lo == 0 {
						lo = s.cands[0].id
					}
					hi = s.cands[len(s.cands)-1].id
				}
			}
			if lo != 0 && !body.labels {
				list = append(list, &site{kind: hostDispatch, start: body.start, end: body.start, lo: lo, hi: hi, body: body})
			}
		}
		if f.marker >= 0 {
			list = append(list, &site{kind: hostMarker, start: f.marker, end: f.marker})
		}
		sortSites(list)
		sites[f] = list
	}
	return sites, next - 1
}

// sortSites: by start; an enclosing site before the sites inside it.
func sortSites(list []*site) {
	sort.SliceStable(list, func(i, j int) bool {
		a, b := list[i], list[j]
		if a.start != b.start {
			return a.start < b.start
		}
		if a.end != b.end {
			return a.end > b.end
		}
		return a.kind < b.kind
	})
}

// render writes the file with every site switched. A mutant's arm is the
// host's original text with its one change, so the sites nested in a host
// appear only in its original arm: one mutant is active at a time.
func (f *sourceFile) render(sites []*site) rendered {
	var b strings.Builder
	var out rendered
	var walk func(lo, hi int, inner []*site)
	walk = func(lo, hi int, inner []*site) {
		at := lo
		for i := 0; i < len(inner); {
			s := inner[i]
			j := i + 1
			for j < len(inner) && inner[j].start < s.end {
				j++
			}
			b.Write(f.src[at:s.start])
			start := b.Len()
			original := func() { walk(s.start, s.end, inner[i+1:j]) }
			arm := func(c *candidate) {
				a := b.Len()
				b.WriteString(c.armText())
				out.arms = append(out.arms, span{a, b.Len(), []*candidate{c}})
			}
			lo, hi := 0, 0
			if len(s.cands) > 0 {
				lo, hi = s.cands[0].id, s.cands[len(s.cands)-1].id
			}
			switch s.kind {
			case hostMarker:
				b.WriteString(" mutantLoop();")
			case hostDispatch:
				fmt.Fprintf(&b, " if mutantQuietIn(%d, %d) {", s.lo, s.hi)
				b.Write(f.src[s.body.start:s.body.end])
				b.WriteString("\n")
				if s.body.void {
					b.WriteString("return\n")
				}
				b.WriteString("};")
			case hostBool:
				// When the original is false, one compare skips the arms.
				fmt.Fprintf(&b, "(!mutantIn(%d, %d) && (", lo, hi)
				original()
				fmt.Fprintf(&b, ") || mutantActive >= %d && (", lo)
				for k, c := range s.cands {
					if k > 0 {
						b.WriteString(" || ")
					}
					fmt.Fprintf(&b, "mutantActive == %d && (", c.id)
					arm(c)
					b.WriteString(")")
				}
				b.WriteString("))")
			case hostReassign:
				original()
				fmt.Fprintf(&b, "; if mutantIn(%d, %d) { switch mutantActive {", lo, hi)
				for _, c := range s.cands {
					fmt.Fprintf(&b, " case %d: ", c.id)
					arm(c)
					b.WriteString(";")
				}
				b.WriteString(" } }")
			case hostEager:
				for _, c := range s.cands {
					fmt.Fprintf(&b, "mutantPick(%d, (", c.id)
					arm(c)
					b.WriteString("), ")
				}
				b.WriteString("(")
				original()
				b.WriteString(")" + strings.Repeat(")", len(s.cands)))
			case hostStmt:
				fmt.Fprintf(&b, "if !mutantIn(%d, %d) { ", lo, hi)
				original()
				for k, c := range s.cands {
					if k == len(s.cands)-1 {
						b.WriteString(" } else { ")
					} else {
						fmt.Fprintf(&b, " } else if mutantActive == %d { ", c.id)
					}
					arm(c)
				}
				b.WriteString(" }")
			case hostShift:
				b.WriteString("(")
				original()
				plus, minus := 0, 0
				for _, c := range s.cands {
					if c.delta > 0 {
						plus = c.id
					} else {
						minus = c.id
					}
				}
				switch {
				case plus != 0 && minus != 0:
					fmt.Fprintf(&b, " + 1<<mutantBit(%d) - 1<<mutantBit(%d)", plus, minus)
				case plus != 0:
					fmt.Fprintf(&b, " + 1<<mutantBit(%d) - 1", plus)
				default:
					fmt.Fprintf(&b, " - 1<<mutantBit(%d) + 1", minus)
				}
				b.WriteString(")")
			}
			if s.kind != hostMarker && s.kind != hostDispatch {
				out.wraps = append(out.wraps, span{start, b.Len(), s.cands})
			}
			at, i = s.end, j
		}
		b.Write(f.src[at:hi])
	}
	walk(0, len(f.src), sites)
	out.text = b.String()
	return out
}

// blame finds the mutants a compiler error at (line, column) of the
// generated text belongs to: the innermost arm holding it, else every
// mutant of the innermost switch holding it.
func (r rendered) blame(line, column int) []*candidate {
	offset := 0
	for l := 1; l < line && offset >= 0; l++ {
		next := strings.IndexByte(r.text[offset:], '\n')
		if next < 0 {
			return nil
		}
		offset += next + 1
	}
	offset += column - 1
	innermost := func(spans []span) []*candidate {
		var best *span
		for i := range spans {
			s := &spans[i]
			if s.start <= offset && offset <= s.end && (best == nil || s.end-s.start < best.end-best.start) {
				best = s
			}
		}
		if best == nil {
			return nil
		}
		return best.cands
	}
	if c := innermost(r.arms); c != nil {
		return c
	}
	return innermost(r.wraps)
}
