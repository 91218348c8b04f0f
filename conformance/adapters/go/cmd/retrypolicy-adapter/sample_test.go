package main

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"
)

type answer struct {
	OK     bool       `json:"ok"`
	Result []*float64 `json:"result"`
	Error  string     `json:"error"`
}

// sample answers one sample request on a policy of jitter factor 0.5.
func sample(t *testing.T, members string) answer {
	t.Helper()
	line := `{"id":1,"op":"sample","policy":{"jitter_factor":0.5},` + members + `}`
	var a answer
	if err := json.Unmarshal(answerLine([]byte(line)), &a); err != nil {
		t.Fatalf("%s: %v", line, err)
	}
	return a
}

func TestSampleThreadsDrawCountValuesInsideTheBand(t *testing.T) {
	// Shares of 1024 each; one more for the first 3; none for one goroutine.
	for _, count := range []int{4096, 4099, 3} {
		a := sample(t, `"delay":8,"count":`+strconv.Itoa(count)+`,"threads":4`)
		if !a.OK || len(a.Result) != count {
			t.Fatalf("count %d: %d draws, %s", count, len(a.Result), a.Error)
		}
		// A value shared between goroutines, or stuck, is a broken source,
		// not chance.
		seen := map[float64]bool{}
		for _, x := range a.Result {
			if x == nil || !(*x >= 4 && *x < 12) || seen[*x] {
				t.Fatalf("count %d: draw %v outside [4, 12), null or drawn twice", count, x)
			}
			seen[*x] = true
		}
	}
}

func TestSampleThreadsWithAttemptGiveUpAlike(t *testing.T) {
	a := sample(t, `"attempt":1,"count":10,"threads":3`) // max_attempts 1 gives up
	if !a.OK || len(a.Result) != 10 {
		t.Fatalf("%+v", a)
	}
	for _, x := range a.Result {
		if x != nil {
			t.Fatalf("%v, want null", *x)
		}
	}
}

func TestSampleThreadsOutOfRangeOrNotAnIntegerIsAnErrorNamingThreads(t *testing.T) {
	for _, threads := range []string{"0", "65", `"x"`, "4.0", "null", "-1"} {
		if a := sample(t, `"delay":8,"count":8,"threads":`+threads); a.OK || !strings.HasPrefix(a.Error, "threads: ") {
			t.Errorf("threads %s: %+v", threads, a)
		}
	}
}

func TestSampleRefusesTheCallBeforeAnyGoroutineStarts(t *testing.T) {
	if a := sample(t, `"delay":"NaN","count":8,"threads":4`); !strings.HasPrefix(a.Error, "delay: ") {
		t.Errorf("%+v", a)
	}
	if a := sample(t, `"attempt":0,"count":8,"threads":4`); !strings.HasPrefix(a.Error, "attempt: ") {
		t.Errorf("%+v", a)
	}
}

func TestSampleTwoAnswersWithThreadsAreNotTheSameStream(t *testing.T) {
	first := sample(t, `"delay":8,"count":64,"threads":4`).Result
	seen := map[float64]bool{}
	for _, x := range first {
		seen[*x] = true
	}
	for _, x := range sample(t, `"delay":8,"count":64,"threads":4`).Result {
		if seen[*x] {
			t.Fatalf("%v drawn in both answers", *x)
		}
	}
}

func TestSampleOneThreadAndNoneGivenAreTheSameRequest(t *testing.T) {
	for _, members := range []string{`"delay":8,"count":5,"threads":1`, `"delay":8,"count":5`} {
		if a := sample(t, members); !a.OK || len(a.Result) != 5 {
			t.Errorf("%s: %+v", members, a)
		}
	}
}
