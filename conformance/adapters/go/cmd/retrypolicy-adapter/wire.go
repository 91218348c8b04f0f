package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"
)

// ---- Reading a line --------------------------------------------------------

// A malformed line: the answer's id is null.
type malformed struct{ why string }

func (m malformed) Error() string { return "line: " + m.why }

// parseRequest reads a line as one strict JSON value (RFC 8259). Go's
// encoding/json is lenient where the protocol is not, so each gap is closed
// here.
func parseRequest(line []byte) (interface{}, error) {
	if !nestingWithin(line, maxDepth) {
		return nil, malformed{"arrays and objects nest deeper than the protocol's 32"}
	}
	if bytes.HasPrefix(line, []byte("\xef\xbb\xbf")) {
		return nil, malformed{"starts with a byte-order mark"}
	}
	// encoding/json replaces invalid UTF-8 and lone surrogates with U+FFFD
	// instead of failing, so both are checked on the raw bytes first.
	if !utf8.Valid(line) {
		return nil, malformed{"invalid UTF-8"}
	}
	if hasLoneSurrogate(line) {
		return nil, malformed{`a string holds a lone surrogate (\ud800 to \udfff)`}
	}
	if len(bytes.TrimSpace(line)) == 0 {
		return nil, malformed{"empty; a request is one JSON object"}
	}
	dec := json.NewDecoder(bytes.NewReader(line))
	// Numbers as their text: an integer field must be an integer literal
	// (5, not 5.0), which a float64 can no longer tell.
	dec.UseNumber()
	var value interface{}
	if err := dec.Decode(&value); err != nil {
		return nil, malformed{"not JSON: " + describeSyntaxError(err)}
	}
	// One value per line: a second Decode must find nothing.
	if _, err := dec.Token(); err != io.EOF {
		return nil, malformed{"more than one JSON value"}
	}
	if err := numbersFinite(value); err != nil {
		return nil, err
	}
	return value, nil
}

func describeSyntaxError(err error) string {
	var syntax *json.SyntaxError
	if errors.As(err, &syntax) {
		return "at column " + strconv.FormatInt(syntax.Offset, 10)
	}
	if err == io.ErrUnexpectedEOF {
		return "the line ends inside a JSON value"
	}
	return "unreadable"
}

// nestingWithin counts brackets on the raw text, strings skipped, so no
// decoder ever recurses deeper than max.
func nestingWithin(line []byte, max int) bool {
	depth, inString, escaped := 0, false, false
	for _, c := range line {
		switch {
		case inString && escaped:
			escaped = false
		case inString && c == '\\':
			escaped = true
		case inString && c == '"':
			inString = false
		case inString:
		case c == '"':
			inString = true
		case c == '[' || c == '{':
			depth++
			if depth > max {
				return false
			}
		case c == ']' || c == '}':
			depth--
		}
	}
	return true
}

// hasLoneSurrogate finds a \uD800-\uDFFF escape inside a string that is not
// half of a pair (a high one followed by a low one).
func hasLoneSurrogate(line []byte) bool {
	inString := false
	for i := 0; i < len(line); i++ {
		c := line[i]
		if !inString {
			inString = c == '"'
			continue
		}
		if c == '"' {
			inString = false
			continue
		}
		if c != '\\' || i+1 >= len(line) {
			continue
		}
		if line[i+1] != 'u' {
			i++ // an escaped character, perhaps a backslash
			continue
		}
		unit, ok := hex4(line, i+2)
		if !ok {
			return false // not JSON at all; the decoder says so
		}
		switch {
		case unit >= 0xDC00 && unit <= 0xDFFF:
			return true // a low half with no high half before it
		case unit >= 0xD800 && unit <= 0xDBFF:
			low, ok := uint64(0), i+7 < len(line) && line[i+6] == '\\' && line[i+7] == 'u'
			if ok {
				low, ok = hex4(line, i+8)
			}
			if !ok || low < 0xDC00 || low > 0xDFFF {
				return true
			}
			i += 11
		default:
			i += 5
		}
	}
	return false
}

func hex4(line []byte, at int) (uint64, bool) {
	if at+4 > len(line) {
		return 0, false
	}
	unit, err := strconv.ParseUint(string(line[at:at+4]), 16, 16)
	return unit, err == nil
}

// numbersFinite rejects a line holding a number literal that overflows
// binary64 (1e400, or an integer of 309 digits), wherever it is: the
// protocol calls the whole line malformed. strconv.ParseFloat reports it as
// ErrRange with ±Inf; underflow (1e-400) is not an error and reads as 0.
func numbersFinite(v interface{}) error {
	switch v := v.(type) {
	case json.Number:
		if _, err := strconv.ParseFloat(string(v), 64); err != nil {
			return malformed{"the number " + clip(string(v)) +
				` is beyond binary64's range (write "Infinity" for an infinite value)`}
		}
	case []interface{}:
		for _, e := range v {
			if err := numbersFinite(e); err != nil {
				return err
			}
		}
	case map[string]interface{}:
		for _, e := range v {
			if err := numbersFinite(e); err != nil {
				return err
			}
		}
	}
	return nil
}

// ---- Writing an answer -----------------------------------------------------

// formatNumber writes a binary64 in shortest round-trip form.
// strconv.FormatFloat(x, 'g', -1, 64) is that, except that it writes
// negative zero as "-0", which the protocol reads as the integer 0, that
// is +0.0: so -0.0 is written "-0.0". Non-finite values are the strings.
func formatNumber(x float64) string {
	switch {
	case math.IsNaN(x):
		return `"NaN"`
	case math.IsInf(x, 1):
		return `"Infinity"`
	case math.IsInf(x, -1):
		return `"-Infinity"`
	case x == 0 && math.Signbit(x):
		return "-0.0"
	}
	return strconv.FormatFloat(x, 'g', -1, 64)
}

// writeJSON writes a decoded value back as ASCII JSON (the protocol's
// answers are ASCII; encoding/json writes UTF-8), numbers as their text, so
// an id comes back with the value it was sent with.
func writeJSON(out *strings.Builder, v interface{}) {
	switch v := v.(type) {
	case nil:
		out.WriteString("null")
	case bool:
		out.WriteString(strconv.FormatBool(v))
	case json.Number:
		out.WriteString(string(v))
	case string:
		writeString(out, v)
	case []interface{}:
		out.WriteByte('[')
		for i, e := range v {
			if i > 0 {
				out.WriteByte(',')
			}
			writeJSON(out, e)
		}
		out.WriteByte(']')
	case map[string]interface{}:
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		out.WriteByte('{')
		for i, k := range keys {
			if i > 0 {
				out.WriteByte(',')
			}
			writeString(out, k)
			out.WriteByte(':')
			writeJSON(out, v[k])
		}
		out.WriteByte('}')
	default:
		writeString(out, fmt.Sprint(v))
	}
}

// writeString writes s as a JSON string, escaping everything outside
// printable ASCII (UTF-16 surrogate pairs above U+FFFF).
func writeString(out *strings.Builder, s string) {
	out.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			out.WriteByte('\\')
			out.WriteRune(r)
		case r >= 0x20 && r < 0x7f:
			out.WriteRune(r)
		case r > 0xffff:
			r -= 0x10000
			fmt.Fprintf(out, `\u%04x\u%04x`, 0xd800+(r>>10), 0xdc00+(r&0x3ff))
		default:
			fmt.Fprintf(out, `\u%04x`, r)
		}
	}
	out.WriteByte('"')
}

func clip(s string) string {
	if len(s) > 60 {
		return s[:60] + "..."
	}
	return s
}

func quote(v interface{}) string {
	var out strings.Builder
	writeJSON(&out, v)
	return clip(out.String())
}

func errorAnswer(id interface{}, message string) []byte {
	var out strings.Builder
	out.WriteString(`{"id":`)
	writeJSON(&out, id)
	out.WriteString(`,"ok":false,"error":`)
	writeString(&out, message)
	out.WriteByte('}')
	return []byte(out.String())
}
