package store

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"
)

// A write's changes are packed, in order, into payloads under the NOTIFY
// limit; a change too large alone travels as its key; a listener reads
// them all back, and still reads a payload of one notice alone.
func TestNotifyPayloadsKeepEveryChangeInOrder(t *testing.T) {
	now := time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)
	var changes []Change
	for i := range 40 {
		rec := map[string]any{"id": fmt.Sprintf("id%d", i), "email": fmt.Sprintf("a%d@example.com", i), "page_path": strings.Repeat("x", 10*i)}
		if i == 17 {
			rec["page_path"] = strings.Repeat("y", maxNotifyBytes)
		}
		changes = append(changes, Change{Table: TableWaitlist, Type: "INSERT", Record: rec, CommitTimestamp: now})
	}
	payloads, err := notifyPayloads(changes)
	if err != nil {
		t.Fatal(err)
	}
	if len(payloads) < 2 || len(payloads) > 6 {
		t.Fatalf("%d payloads", len(payloads))
	}
	var got []notice
	for _, p := range payloads {
		if len(p) > maxNotifyBytes {
			t.Fatalf("payload of %d bytes", len(p))
		}
		nts, err := decodeNotices(p)
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, nts...)
	}
	if len(got) != len(changes) {
		t.Fatalf("%d notices for %d changes", len(got), len(changes))
	}
	for i, nt := range got {
		id := fmt.Sprintf("id%d", i)
		switch {
		case i == 17:
			if nt.Key != id || nt.Record != nil {
				t.Fatalf("large change %d = %+v", i, nt)
			}
		case nt.Record["id"] != id || nt.Record["page_path"] != strings.Repeat("x", 10*i) || !nt.CommitTimestamp.Equal(now):
			t.Fatalf("change %d = %+v", i, nt)
		}
	}
	one, _ := json.Marshal(notice{Change: changes[0]})
	nts, err := decodeNotices(string(one))
	if err != nil || len(nts) != 1 || nts[0].Record["id"] != "id0" {
		t.Fatalf("one notice alone: %+v, %v", nts, err)
	}
	if _, err := decodeNotices(`[{"table":`); err == nil {
		t.Fatal("a broken payload was accepted")
	}
}
