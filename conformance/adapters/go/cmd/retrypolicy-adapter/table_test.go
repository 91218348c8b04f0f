package main

import (
	"encoding/json"
	"os"
	"reflect"
	"testing"
)

// The protocol's table (conformance/protocol/protocol.json, what
// `retry-policy protocol` prints): the adapter's limits, ops and members
// must be its, so a limit changed there and not here fails now, not at the
// border case a run of check may or may not send.
type protocolTable struct {
	Limits map[string]struct {
		Value int64 `json:"value"`
	} `json:"limits"`
	Ops []struct {
		Name    string `json:"name"`
		Members []struct {
			Name string `json:"name"`
		} `json:"members"`
	} `json:"ops"`
	VectorLineMembers []string `json:"vector_line_members"`
}

func readTable(t *testing.T) protocolTable {
	t.Helper()
	text, err := os.ReadFile("../../../../protocol/protocol.json")
	if err != nil {
		t.Fatal(err)
	}
	var table protocolTable
	if err := json.Unmarshal(text, &table); err != nil {
		t.Fatal(err)
	}
	return table
}

func TestLimitsAreTheTables(t *testing.T) {
	ours := map[string]int64{
		"max_line_bytes":       maxLineBytes,
		"max_depth":            maxDepth,
		"max_schedule_entries": maxScheduleEntries,
		"max_replay_calls":     maxReplayCalls,
		"max_replay_skip":      maxReplaySkip,
		"max_sample_count":     maxSampleCount,
		"max_sample_threads":   maxSampleThreads,
		"max_steps":            maxSteps,
		"max_seed":             maxSeed,
	}
	table := readTable(t)
	for name, limit := range table.Limits {
		if got, ok := ours[name]; !ok || got != limit.Value {
			t.Errorf("%s: the adapter has %d (declared: %v), the table %d", name, got, ok, limit.Value)
		}
	}
	if len(ours) != len(table.Limits) {
		t.Errorf("the adapter declares %d limits, the table has %d", len(ours), len(table.Limits))
	}
}

func TestOpsAndMembersAreTheTables(t *testing.T) {
	table := readTable(t)
	if len(ops) != len(table.Ops) {
		t.Errorf("the adapter answers %d ops, the table has %d", len(ops), len(table.Ops))
	}
	for _, row := range table.Ops {
		o, ok := ops[row.Name]
		if !ok {
			t.Errorf("op %s: in the table, not in the adapter", row.Name)
			continue
		}
		want := []string{}
		for _, m := range row.Members[3:] { // id, op and policy are every op's
			want = append(want, m.Name)
		}
		got := append([]string{}, o.members...)
		if !reflect.DeepEqual(got, want) {
			t.Errorf("op %s: the adapter's members %v, the table's %v", row.Name, got, want)
		}
	}
	if !reflect.DeepEqual(vectorLineMembers, table.VectorLineMembers) {
		t.Errorf("vector line members: the adapter's %v, the table's %v", vectorLineMembers, table.VectorLineMembers)
	}
}
