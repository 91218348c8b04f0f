// Go's common sources, drawn for sample_adapter.py.
//
//	sources SOURCE    reads "T N" lines, answers N draws, one a line
//
// SOURCE is one of:
//
//	package-float64      the package-level rand.Float64: before Go 1.20, seed 1 in
//	                     every process; its source is locked
//	new-source-unixnano  rand.New(rand.NewSource(time.Now().UnixNano())).Float64,
//	                     made once at start; a *rand.Rand has no lock
//
// Draws are written by strconv.FormatFloat(x, 'g', -1, 64), the shortest
// round-trip form. T > 1: T goroutines released together draw from the one
// source, goroutine i making N/T draws, one more if i < N%T, written in turn.
package main

import (
	"bufio"
	"fmt"
	"math/rand"
	"os"
	"runtime"
	"strconv"
	"sync"
	"sync/atomic"
	"time"
)

var sources = map[string]func() func() float64{
	"package-float64": func() func() float64 { return rand.Float64 },
	"new-source-unixnano": func() func() float64 {
		return rand.New(rand.NewSource(time.Now().UnixNano())).Float64
	},
}

func drawnByGoroutines(draw func() float64, count, threads int) []float64 {
	shares := make([][]float64, threads)
	// A spinning start, so that every goroutine is running when the draws begin.
	var ready int32
	var done sync.WaitGroup
	for i := 0; i < threads; i++ {
		calls := count / threads
		if i < count%threads {
			calls++
		}
		done.Add(1)
		go func(i, calls int) {
			defer done.Done()
			atomic.AddInt32(&ready, 1)
			for atomic.LoadInt32(&ready) < int32(threads) {
				runtime.Gosched()
			}
			share := make([]float64, calls)
			for k := range share {
				share[k] = draw()
			}
			shares[i] = share
		}(i, calls)
	}
	done.Wait()
	var drawn []float64
	for _, share := range shares {
		drawn = append(drawn, share...)
	}
	return drawn
}

func main() {
	if len(os.Args) != 2 || sources[os.Args[1]] == nil {
		fmt.Fprintln(os.Stderr, "usage: sources {package-float64|new-source-unixnano}")
		os.Exit(2)
	}
	draw := sources[os.Args[1]]()
	in := bufio.NewScanner(os.Stdin)
	out := bufio.NewWriterSize(os.Stdout, 1<<20)
	for in.Scan() {
		var threads, count int
		if _, err := fmt.Sscan(in.Text(), &threads, &count); err != nil {
			fmt.Fprintln(out, "error: not a request \"T N\":", err)
			out.Flush()
			continue
		}
		var drawn []float64
		if threads == 1 {
			drawn = make([]float64, count)
			for k := range drawn {
				drawn[k] = draw()
			}
		} else {
			drawn = drawnByGoroutines(draw, count, threads)
		}
		buffer := make([]byte, 0, 24)
		for _, x := range drawn {
			buffer = strconv.AppendFloat(buffer[:0], x, 'g', -1, 64)
			out.Write(append(buffer, '\n'))
		}
		out.Flush()
	}
}
