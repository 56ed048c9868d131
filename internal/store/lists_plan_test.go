package store_test

import (
	"context"
	"strings"
	"testing"

	"salaula/internal/console"
	"salaula/internal/console/consoletest"
	"salaula/internal/store"
	"salaula/internal/store/storetest"
)

// explain returns the engine's plan of a query.
func explain(t *testing.T, db *store.DB, sqlText string, args ...any) string {
	t.Helper()
	prefix := "EXPLAIN "
	if db.Dialect() == store.SQLite {
		prefix = "EXPLAIN QUERY PLAN "
	}
	rows, err := db.Query(context.Background(), prefix+sqlText, args...)
	if err != nil {
		t.Fatalf("explain %s: %v", sqlText, err)
	}
	defer rows.Close()
	cols, _ := rows.Columns()
	var lines []string
	for rows.Next() {
		cells := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range cells {
			ptrs[i] = &cells[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			t.Fatal(err)
		}
		// SQLite: id, parent, notused, detail; PostgreSQL: one line of text.
		if s, ok := cells[len(cells)-1].(string); ok {
			lines = append(lines, s)
		} else if b, ok := cells[len(cells)-1].([]byte); ok {
			lines = append(lines, string(b))
		}
	}
	return strings.Join(lines, "\n")
}

// TestListQueriesUseIndexesAt100000Rows reads a page of 200 out of 100,000
// sign-ups through an index on both engines, for every filter and sort the
// console offers, first page and later pages: no full scan, no sort. A
// search matching few addresses reads them through its indexes and sorts
// just them; one matching every address walks the list's order.
func TestListQueriesUseIndexesAt100000Rows(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		consoletest.SeedWaitlist(t, db, 100_000)
		ctx := context.Background()
		first, err := console.ListWaitlist(ctx, db, console.WaitlistFilter{}, console.Paging{Limit: 200})
		if err != nil || first.Total != 100_000 || first.NextCursor == nil {
			t.Fatalf("first page: %v, total %d", err, first.Total)
		}
		byEmail, err := console.ListWaitlist(ctx, db, console.WaitlistFilter{}, console.Paging{Limit: 200, Sort: "email"})
		if err != nil {
			t.Fatal(err)
		}
		last, lastByEmail := first.Items[len(first.Items)-1], byEmail.Items[len(byEmail.Items)-1]
		afterFirst := &store.ListAfter{Key: last.CreatedAt, Tie: store.WaitlistTie(last, "created_at")}
		afterByEmail := &store.ListAfter{Key: lastByEmail.Email, Tie: store.WaitlistTie(lastByEmail, "email")}
		emailProgram := "sqlite_autoindex_waitlist_signups_2|waitlist_signups_email_program"
		cases := []struct {
			name   string
			f      store.WaitlistFilter
			o      store.ListOrder
			index  string
			search string // a waitlist search: its own plan
		}{
			{"newest first", store.WaitlistFilter{}, store.ListOrder{Key: "created_at", Desc: true}, "waitlist_signups_created", ""},
			{"newest first, next page", store.WaitlistFilter{}, store.ListOrder{Key: "created_at", Desc: true, After: afterFirst}, "waitlist_signups_created", ""},
			{"oldest first", store.WaitlistFilter{}, store.ListOrder{Key: "created_at"}, "waitlist_signups_created", ""},
			{"one program", store.WaitlistFilter{Program: "Upcycling Initiative"}, store.ListOrder{Key: "created_at", Desc: true}, "waitlist_signups_created", ""},
			{"one program, next page", store.WaitlistFilter{Program: "Wardrobe Clearance Program"}, store.ListOrder{Key: "created_at", Desc: true, After: afterFirst}, "waitlist_signups_created", ""},
			{"one program, subscribed", store.WaitlistFilter{Program: "Upcycling Initiative", Status: store.WaitlistSubscribed}, store.ListOrder{Key: "created_at", Desc: true}, "waitlist_signups_created", ""},
			// The unique (email, program) index: SQLite's automatic one, PostgreSQL's byte-ordered one.
			{"by e-mail", store.WaitlistFilter{}, store.ListOrder{Key: "email", Desc: true}, emailProgram, ""},
			{"by e-mail, next page", store.WaitlistFilter{}, store.ListOrder{Key: "email", After: afterByEmail}, emailProgram, ""},
			{"unsubscribed", store.WaitlistFilter{Status: store.WaitlistUnsubscribed}, store.ListOrder{Key: "created_at", Desc: true}, "waitlist_signups_created", ""},
			// A search matching 100 addresses reads them through its indexes
			// (the address's and the domain's); one matching every address
			// walks the list's order.
			{"search, few", store.WaitlistFilter{}, store.ListOrder{Key: "created_at", Desc: true}, "waitlist_signups_domain", "seed00001"},
			{"search, many", store.WaitlistFilter{}, store.ListOrder{Key: "created_at", Desc: true}, "waitlist_signups_created", "example.com"},
		}
		for _, c := range cases {
			c.o.Limit = 201
			sqlText, args, err := db.WaitlistListSQL(c.f, c.o)
			if err != nil {
				t.Fatal(err)
			}
			if c.search != "" {
				sqlText, args, err = db.SearchSQL(ctx, "waitlist", c.search, c.o)
				if err != nil {
					t.Fatal(err)
				}
			}
			plan := explain(t, db, sqlText, args...)
			used := false
			for _, index := range strings.Split(c.index, "|") { // any of these serves
				used = used || strings.Contains(plan, "INDEX "+index) || strings.Contains(plan, "using "+index) || strings.Contains(plan, "Index Scan on "+index)
			}
			if !used {
				t.Errorf("%s: the plan does not use %s:\n%s", c.name, c.index, plan)
			}
			if strings.Contains(plan, "Seq Scan") {
				t.Errorf("%s: the plan reads the table whole:\n%s", c.name, plan)
			}
			if c.name != "search, few" && fullSort(plan) { // the few matches are sorted
				t.Errorf("%s: the plan sorts every row it reads:\n%s", c.name, plan)
			}
		}
	})
}

// fullSort reports whether a plan sorts the rows it reads as a whole
// rather than only the rows of one created_at among themselves (the index
// gives the time order; ties are sorted by id: SQLite's "temp b-tree for
// last term of order by", PostgreSQL's incremental sort).
func fullSort(plan string) bool {
	for _, line := range strings.Split(plan, "\n") {
		line = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(line), "->"))
		if strings.HasPrefix(line, "Sort  (") || strings.Contains(line, "TEMP B-TREE FOR ORDER BY") {
			return true
		}
	}
	return false
}

// fullScan reports whether a plan reads a whole table: SQLite's SCAN of a
// table without an index, PostgreSQL's Seq Scan.
func fullScan(plan string) bool {
	for _, line := range strings.Split(plan, "\n") {
		line = strings.TrimSpace(line)
		if strings.Contains(line, "Seq Scan") || strings.HasPrefix(line, "SCAN ") && !strings.Contains(line, " USING ") {
			return true
		}
	}
	return false
}

// TestMessagesAndPeopleSearchesUseIndexes reads the first page of a search
// of 100,000 contact messages and of 100,000 people on both engines through
// the search's indexes: one matching few reads every index of the search
// (address, domain, names) and no table whole; one matching many walks
// the list's order, unsorted.
func TestMessagesAndPeopleSearchesUseIndexes(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		const n = 100_000
		if err := consoletest.ScaleMessages(ctx, db, n); err != nil {
			t.Fatal(err)
		}
		if err := consoletest.ScalePeople(ctx, db, n); err != nil {
			t.Fatal(err)
		}
		messageIndexes := []string{"contact_messages_email_id|contact_messages_email_bytes", "contact_messages_domain",
			"contact_messages_first_name", "contact_messages_last_name"}
		peopleIndexes := []string{"sqlite_autoindex_users_2|users_email_bytes", "users_domain", "profiles_full_name", "profiles_last_word"}
		cases := []struct {
			name, list, q string
			indexes       []string // each must serve (any of a|b)
			sorted        bool     // the few matches are sorted
		}{
			{"messages, few by address", "messages", "seed00001", messageIndexes, true},
			{"messages, few by name", "messages", "banda00001", messageIndexes, true},
			{"messages, a hundred by domain", "messages", consoletest.HundredDomain, messageIndexes, true},
			{"messages, many", "messages", "example.com", []string{"contact_messages_created_id"}, false},
			{"people, few by address", "people", "seed00001", peopleIndexes, true},
			{"people, few by last word", "people", "banda00001", peopleIndexes, true},
			{"people, a hundred by domain", "people", consoletest.HundredDomain, peopleIndexes, true},
			{"people, many", "people", "example.com", []string{"users_created_id"}, false},
		}
		for _, c := range cases {
			sqlText, args, err := db.SearchSQL(ctx, c.list, c.q, store.ListOrder{Key: "created_at", Desc: true, Limit: 51})
			if err != nil {
				t.Fatal(err)
			}
			plan := explain(t, db, sqlText, args...)
			for _, index := range c.indexes {
				used := false
				for _, name := range strings.Split(index, "|") {
					used = used || strings.Contains(plan, "INDEX "+name) || strings.Contains(plan, " on "+name) || strings.Contains(plan, "using "+name)
				}
				if !used {
					t.Errorf("%s: the plan does not use %s:\n%s", c.name, index, plan)
				}
			}
			if fullScan(plan) {
				t.Errorf("%s: the plan reads a table whole:\n%s", c.name, plan)
			}
			if !c.sorted && (strings.Contains(plan, "Sort") || strings.Contains(plan, "TEMP B-TREE")) {
				t.Errorf("%s: the plan sorts:\n%s", c.name, plan)
			}
		}
	})
}
