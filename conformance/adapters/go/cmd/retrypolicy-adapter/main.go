// retrypolicy-adapter speaks the conformance protocol (docs/protocol.md
// in the acemq-retry repository) for the Go port: one JSON request a line on
// stdin, one answer a line on stdout, flushed, until end of input.
//
//	go build -o retrypolicy-adapter ./cmd/retrypolicy-adapter
//	retry-policy check --impl ./retrypolicy-adapter
//
// Written from the protocol's text alone, as a port's team would write one;
// each Go trap it meets is commented where it is handled.
package main

import (
	"bufio"
	"io"
	"os"
	"strconv"
)

// The protocol's limits (docs/protocol.md, Limits).
const (
	maxLineBytes       = 1 << 20 // a longer request line is an error
	maxDepth           = 32      // arrays and objects nest at most this deep
	maxScheduleEntries = 1 << 16
	maxReplayCalls     = 256
	maxReplaySkip      = 1 << 16   // draws a replay may discard: 210 refills of MT19937's state
	maxSampleCount     = 1 << 16   // draws in one sample answer (about 1.3 MB of JSON)
	maxSampleThreads   = 64        // goroutines drawing at once for one sample answer
	maxSteps           = 1 << 20   // next_delay's cost limit, see withinCostLimit
	maxSeed            = 1<<32 - 1 // a seed is one 32-bit word, as MT19937 is seeded
)

func main() {
	// A request is the bytes up to LF. Not bufio.Scanner: it aborts on a
	// line longer than its buffer, where the protocol wants an error answer
	// and the next line. A CR is not a line end: it is JSON whitespace.
	in := bufio.NewReaderSize(os.Stdin, maxLineBytes+1)
	out := bufio.NewWriter(os.Stdout)
	for {
		line, tooLong, err := readLine(in)
		if err == io.EOF && line == nil && tooLong == 0 {
			break
		}
		var answer []byte
		if tooLong > 0 {
			answer = errorAnswer(nil, "line: "+strconv.Itoa(tooLong)+
				" bytes is longer than the protocol's "+strconv.Itoa(maxLineBytes))
		} else {
			answer = answerLine(line)
		}
		out.Write(answer)
		out.WriteByte('\n')
		if out.Flush() != nil {
			os.Exit(1) // the checker went away
		}
		if err != nil {
			break
		}
	}
}

// readLine returns the next request line without its LF; a last line
// without one still counts. A line longer than maxLineBytes is consumed
// without being kept, and only its length returned.
func readLine(in *bufio.Reader) (line []byte, tooLong int, err error) {
	chunk, err := in.ReadSlice('\n')
	if err == nil {
		return append([]byte(nil), chunk[:len(chunk)-1]...), 0, nil
	}
	if err != bufio.ErrBufferFull {
		if len(chunk) == 0 {
			return nil, 0, err
		}
		return append([]byte(nil), chunk...), 0, err
	}
	length := len(chunk)
	for {
		chunk, err = in.ReadSlice('\n')
		if err == nil {
			return nil, length + len(chunk) - 1, nil
		}
		length += len(chunk)
		if err != bufio.ErrBufferFull {
			return nil, length, err
		}
	}
}
