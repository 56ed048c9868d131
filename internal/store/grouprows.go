package store

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
)

// On PostgreSQL every statement is a round trip and a piece of work for the
// server (even prepared), so the group writer sends a group in as few
// statements as it can:
//
//   - the group's new rows of one kind (waitlist sign-ups, contact
//     messages) go in with one INSERT ... SELECT FROM unnest(arrays)
//     RETURNING the announced columns, instead of one INSERT and one
//     savepoint each (combineRows). A sign-up whose (e-mail, program) is
//     already on the list inserts nothing there (ON CONFLICT DO NOTHING)
//     and is run again on its own, in its savepoint, as before.
//   - each inserted row's follow-up (its roll-up, its e-mail, its analytics
//     milestone) only leaves work for the end of the group; the group's
//     roll-ups, e-mails, InsertLater rows and NOTIFYs are then one statement
//     (writePostgres).
//
// So a group of sign-ups costs BEGIN, the INSERT, the end and COMMIT. When
// the combined INSERT fails (a row breaks a constraint other than the
// (e-mail, program) one) or a follow-up needs a statement of its own, the
// transaction is undone and the group is run again write by write, each in
// its savepoint: a bad write is still undone alone, nothing is lost.
//
// SQLite groups of two or more writes take the same path, for the savepoint
// per write it saves (its sub-journal copies) and the one INSERT per row:
// the rows go in with INSERT ... VALUES (...), (...), one statement for a
// group of up to 16 and chunks beyond (see chunkSizes; no unnest; at most
// 64 x 12 bound parameters), their announcements leave after the commit as
// before, and the group's end is written with SQLite's statements (write).

// rowKind is a kind of write whose rows the group writer can insert
// together: table is the change table its rows are announced in, insert
// the INSERT ... SELECT * FROM unnest(...) statement taking one array per
// value of a row and returning the announced columns.
type rowKind struct {
	table, insert string
	// On SQLite (no unnest) the same rows go in with a VALUES list:
	// head, then row once per row, then tail and RETURNING.
	head, row, tail string
}

// newRowKind makes the kind of rows inserted into table's columns, each
// row's values of the given PostgreSQL types, with conflict (e.g. "ON
// CONFLICT (...) DO NOTHING") after the SELECT.
func newRowKind(table, columns, conflict string, types ...string) *rowKind {
	ct := changeTables[table]
	return &rowKind{table: table, insert: `INSERT INTO ` + ct.sql + ` (` + columns + `) ` + unnestSelect(types) +
		` ` + conflict + ` RETURNING ` + ct.colList(),
		head: `INSERT INTO ` + ct.sql + ` (` + columns + `) VALUES `, row: valuesRow(len(types)), tail: ` ` + conflict}
}

// valuesRow is (?, ?, ...) with n placeholders.
func valuesRow(n int) string {
	return `(` + strings.Repeat("?, ", n-1) + `?)`
}

// unnestSelect is SELECT * FROM unnest(?::type[], ...): one row per array
// element.
func unnestSelect(types []string) string {
	var b strings.Builder
	b.WriteString("SELECT * FROM unnest(")
	for i, t := range types {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString("?::" + t + "[]")
	}
	b.WriteString(")")
	return b.String()
}

// rowInsert is the combinable form of a write: its row (key: the value of
// the table's key column, values: in the order of its kind's arrays) and
// after, run in the same transaction when the row was inserted. A write
// whose row is not inserted (a conflict) runs its whole function instead.
type rowInsert struct {
	kind   *rowKind
	key    string
	values []any
	after  func(*Tx) error
}

// inTxRow is InTx for a write that the group writer may combine with
// others of its kind (see rowInsert); fn is the write in full, run when it
// is not combined.
func (db *DB) inTxRow(ctx context.Context, ins *rowInsert, fn func(*Tx) error) error {
	if db.writer == nil {
		return db.InTx(ctx, fn)
	}
	return db.writer.do(ctx, fn, ins)
}

// combinable reports whether a group has writes to combine.
func combinable(batch []*writeReq) bool {
	for _, r := range batch {
		if r.ins != nil {
			return true
		}
	}
	return false
}

// combineRows inserts the rows of the group's combinable writes, one
// statement per kind, and runs the follow-up of each inserted one. It
// marks in done the writes it took (their hooks in hooks, their work kept
// in g); the others are to be run write by write. It reports false when
// the group must be undone and run again write by write.
func (l *writerLane) combineRows(ctx context.Context, own *Tx, g *pending, batch []*writeReq, done []bool, hooks [][]func()) bool {
	var kinds []*rowKind
	for _, r := range batch {
		if r.ins != nil && !slices.Contains(kinds, r.ins.kind) {
			kinds = append(kinds, r.ins.kind)
		}
	}
	now := time.Now().UTC()
	for _, k := range kinds {
		var rows [][]any
		for _, r := range batch {
			if r.ins != nil && r.ins.kind == k {
				rows = append(rows, r.ins.values)
			}
		}
		inserted, err := k.insertRows(ctx, own, rows)
		if err != nil {
			return false
		}
		for i, r := range batch {
			if r.ins == nil || r.ins.kind != k {
				continue
			}
			rec, ok := inserted[r.ins.key]
			if !ok {
				continue
			}
			delete(inserted, r.ins.key) // a key sent twice is inserted once
			t := &Tx{tx: own.tx, db: own.db, ctx: r.ctx, w: l, group: g, combined: true}
			c := Change{Table: k.table, Type: "INSERT", Record: rec, CommitTimestamp: now}
			if rec == nil {
				c.lazyKey = r.ins.key // SQLite, nobody following: read after the commit if wanted by then
			}
			if err := t.emit(ctx, []Change{c}); err != nil {
				return false
			}
			if r.ins.after != nil {
				res := run(r.ins.after, t)
				if res.err != nil || res.panic != nil || t.broken != nil {
					return false
				}
			}
			g.keep(&t.own)
			hooks[i] = t.afterCommit
			done[i] = true
		}
	}
	return true
}

// insertRows inserts rows of kind k in tx and returns the inserted ones'
// announced records by key (a row whose key is missing was not inserted).
// On SQLite, while nobody follows changes, only the keys are returned and
// the records are nil (see insertAnnouncedByKey).
func (k *rowKind) insertRows(ctx context.Context, tx *Tx, rows [][]any) (map[string]map[string]any, error) {
	ct := changeTables[k.table]
	inserted := make(map[string]map[string]any, len(rows))
	if tx.db.dialect == Postgres {
		arrays, _, err := pgArrays(rows)
		if err != nil {
			return nil, err
		}
		rs, err := tx.Query(ctx, k.insert, arrays...)
		if err != nil {
			return nil, err
		}
		recs, err := ct.scan(rs)
		if err != nil {
			return nil, err
		}
		for _, rec := range recs {
			key, _ := rec[ct.key].(string)
			inserted[key] = rec
		}
		return inserted, nil
	}
	byKey := !tx.db.feed().wanted()
	returning := ` RETURNING ` + ct.colList()
	if byKey {
		returning = ` RETURNING ` + ct.key
	}
	err := eachChunk(len(rows), func(i, size int) error {
		var args []any
		for _, r := range rows[i : i+size] {
			args = append(args, r...)
		}
		rs, err := tx.Query(ctx, k.head+k.row+strings.Repeat(", "+k.row, size-1)+k.tail+returning, args...)
		if err != nil {
			return err
		}
		if !byKey {
			recs, err := ct.scan(rs)
			for _, rec := range recs {
				key, _ := rec[ct.key].(string)
				inserted[key] = rec
			}
			return err
		}
		defer rs.Close()
		for rs.Next() {
			var key string
			if err := rs.Scan(&key); err != nil {
				return err
			}
			inserted[key] = nil
		}
		return rs.Err()
	})
	return inserted, err
}

// arrayable reports whether every value of a row is of a type pgArrays
// makes an array of (a row deferred to the end of a group must be).
func arrayable(row []any) bool {
	for _, v := range row {
		switch v.(type) {
		case string, time.Time, int64, int, bool:
		default:
			return false
		}
	}
	return true
}

// pgArrays turns rows of values into one PostgreSQL array per column, with
// the column's element type (text, timestamp, bigint, boolean), for
// unnest. Every row has the same number of values, each column's of one
// Go type.
func pgArrays(rows [][]any) (arrays []any, types []string, err error) {
	if len(rows) == 0 {
		return nil, nil, nil
	}
	for j, v := range rows[0] {
		switch v.(type) {
		case string:
			arrays, types = append(arrays, column[string](rows, j)), append(types, "text")
		case time.Time:
			arrays, types = append(arrays, column[time.Time](rows, j)), append(types, "timestamp")
		case int64:
			arrays, types = append(arrays, column[int64](rows, j)), append(types, "bigint")
		case int:
			arrays, types = append(arrays, column[int](rows, j)), append(types, "bigint")
		case bool:
			arrays, types = append(arrays, column[bool](rows, j)), append(types, "boolean")
		default:
			return nil, nil, fmt.Errorf("store: no array for a %T", v)
		}
		if arrays[len(arrays)-1] == nil {
			return nil, nil, fmt.Errorf("store: column %d mixes types", j)
		}
	}
	return arrays, types, nil
}

// column is column j of rows as a []T, or nil when a value is not a T.
func column[T any](rows [][]any, j int) any {
	out := make([]T, len(rows))
	for i, r := range rows {
		if j >= len(r) {
			return nil
		}
		v, ok := r[j].(T)
		if !ok {
			return nil
		}
		out[i] = v
	}
	return out
}

// laterRows are rows of InsertLater for one table and column list.
type laterRows struct {
	table, columns string
	rows           [][]any
}

func (p *pending) addLater(table, columns string, rows ...[]any) {
	for _, r := range p.later {
		if r.table == table && r.columns == columns {
			r.rows = append(r.rows, rows...)
			return
		}
	}
	p.later = append(p.later, &laterRows{table: table, columns: columns, rows: slices.Clone(rows)})
}

// countedRows are the counts of CountLater for one table, key column list
// and count column: each distinct key once, with how many times it was
// counted.
type countedRows struct {
	table, columns, countColumn string
	keys                        [][]any
	n                           []int64
	at                          map[string]int // the key, spelt out, -> its place in keys
}

func (p *pending) addCount(table, columns, countColumn string, key []any, n int64) {
	var c *countedRows
	for _, r := range p.counted {
		if r.table == table && r.columns == columns && r.countColumn == countColumn {
			c = r
			break
		}
	}
	if c == nil {
		c = &countedRows{table: table, columns: columns, countColumn: countColumn, at: map[string]int{}}
		p.counted = append(p.counted, c)
	}
	k := keyString(key)
	if i, ok := c.at[k]; ok {
		c.n[i] += n
		return
	}
	c.at[k] = len(c.keys)
	c.keys = append(c.keys, key)
	c.n = append(c.n, n)
}

// keyString spells out key (strings, integers, booleans and times, as
// CountLater takes) so that two keys are spelt alike exactly when their
// values and types are: each value is its type's letter, then for a
// string its length and bytes.
func keyString(key []any) string {
	b := make([]byte, 0, 64)
	for _, v := range key {
		switch v := v.(type) {
		case string:
			b = strconv.AppendInt(append(b, 's'), int64(len(v)), 10)
			b = append(append(b, ':'), v...)
		case int64:
			b = strconv.AppendInt(append(b, 'i'), v, 10)
		case int:
			b = strconv.AppendInt(append(b, 'n'), int64(v), 10)
		case bool:
			b = strconv.AppendBool(append(b, 'b'), v)
		case time.Time:
			b = strconv.AppendInt(append(b, 't'), v.UnixNano(), 10)
			b = append(append(b, '@'), v.Location().String()...)
		default:
			b = fmt.Appendf(append(b, '?'), "%#v", v)
		}
		b = append(b, 0)
	}
	return string(b)
}

// countsToLater turns p's counts into InsertLater rows (the key's values
// and the count), to be written with them.
func (p *pending) countsToLater() {
	for _, c := range p.counted {
		rows := make([][]any, len(c.keys))
		for i, key := range c.keys {
			rows[i] = append(slices.Clip(key), c.n[i])
		}
		p.addLater(c.table, c.columns+", "+c.countColumn, rows...)
	}
	clear(p.counted)
	p.counted = p.counted[:0]
}

// touchesLater reports whether query names a table p has InsertLater rows
// or CountLater counts for.
func (p *pending) touchesLater(query string) bool {
	for _, r := range p.later {
		if strings.Contains(query, r.table) {
			return true
		}
	}
	for _, c := range p.counted {
		if strings.Contains(query, c.table) {
			return true
		}
	}
	return false
}

// CountLater counts one occurrence of key (the values of the
// comma-separated key columns, strings, integers, booleans or times) in
// table, whose countColumn says how many occurrences a row stands for:
// e.g. an analytics milestone, one row per day and name. Inside a group
// commit the counts of the whole group are written at its end, one row per
// distinct key carrying how many of the group's kept writes counted it
// (as InsertLater rows: one statement on PostgreSQL, VALUES lists on
// SQLite), and kept exactly when those writes are. Elsewhere a row with a
// count of 1 is inserted at once.
func (t *Tx) CountLater(ctx context.Context, table, columns, countColumn string, key ...any) error {
	if t.group != nil && arrayable(key) {
		t.own.addCount(table, columns, countColumn, key, 1)
		return nil
	}
	return t.InsertLater(ctx, table, columns+", "+countColumn, append(slices.Clip(key), int64(1))...)
}

// InsertLater inserts one row into table (columns: its comma-separated
// column list; args: the row's values, strings, integers, booleans or
// times), e.g. an analytics count that nothing in the transaction reads.
// Inside a group commit the row is written at the end of the group,
// together with the group's other rows for the same table and columns
// (one statement on PostgreSQL, VALUES lists of up to 64 rows on SQLite),
// and kept exactly when this write is; a later statement of the group
// that names table writes it first. Elsewhere it is inserted at once.
func (t *Tx) InsertLater(ctx context.Context, table, columns string, args ...any) error {
	if t.group != nil && arrayable(args) {
		t.own.addLater(table, columns, args)
		return nil
	}
	_, err := t.Exec(ctx, `INSERT INTO `+table+` (`+columns+`) VALUES (`+strings.Repeat("?, ", len(args)-1)+`?)`, args...)
	return err
}

// writePostgres writes p's roll-ups, e-mails and InsertLater rows in one
// statement (one data-modifying WITH part each, rows passed as arrays, so
// the statement's text, prepared once, does not depend on how many rows
// there are) and empties them; with notify, the same statement also sends
// p's changes (see notify) and empties them. Roll-up rows are written in
// key order, so concurrent lanes take their locks in the same order.
func (p *pending) writePostgres(ctx context.Context, tx *Tx, notify bool) error {
	p.settle()
	var parts []string
	var args []any
	if len(p.daily) > 0 {
		keys := p.dailyKeys()
		days, programs, ns := make([]string, len(keys)), make([]string, len(keys)), make([]int64, len(keys))
		for i, k := range keys {
			days[i], programs[i], ns[i] = k.day, k.program, p.daily[k]
		}
		parts = append(parts, `INSERT INTO waitlist_daily (day, program, signups) `+unnestSelect([]string{"text", "text", "bigint"})+
			` ON CONFLICT (day, program) DO UPDATE SET signups = waitlist_daily.signups + excluded.signups`)
		args = append(args, days, programs, ns)
	}
	if len(p.counts) > 0 {
		keys := p.countsKeys()
		cols := make([][]string, 5)
		for i := range cols {
			cols[i] = make([]string, len(keys))
		}
		ns := make([]int64, len(keys))
		for i, k := range keys {
			cols[0][i], cols[1][i], cols[2][i], cols[3][i], cols[4][i] = k.program, k.utmSource, k.utmCampaign, k.referrer, k.pagePath
			ns[i] = p.counts[k]
		}
		parts = append(parts, `INSERT INTO waitlist_counts (`+waitlistKey+`, subscribed, unsubscribed) SELECT u.*, 0 FROM `+
			strings.TrimPrefix(unnestSelect([]string{"text", "text", "text", "text", "text", "bigint"}), "SELECT * FROM ")+` AS u
			ON CONFLICT (`+waitlistKey+`) DO UPDATE SET subscribed = waitlist_counts.subscribed + excluded.subscribed`)
		args = append(args, cols[0], cols[1], cols[2], cols[3], cols[4], ns)
	}
	if len(p.emails) > 0 {
		n := len(p.emails)
		ids, tos, subjects, bodies, kinds := make([]string, n), make([]string, n), make([]string, n), make([]string, n), make([]string, n)
		vias, states, lists := make([]string, n), make([]string, n), make([]string, n)
		created, attempts := make([]time.Time, n), make([]int64, n)
		for i, e := range p.emails {
			ids[i], tos[i], subjects[i], bodies[i], kinds[i], created[i] = e.ID, e.To, e.Subject, e.Body, e.Kind, e.CreatedAt
			vias[i], states[i], attempts[i], lists[i] = e.Via, e.Status, int64(e.Attempts), e.ListUnsubscribe
		}
		// A queued e-mail is due at once; one recorded as sent was sent
		// when it was written (see Tx.RecordEmailSent).
		parts = append(parts, `INSERT INTO `+emailInsertColumns+`
			SELECT i, t, s, b, k, v, c, st, a, CASE WHEN st = '`+EmailSent+`' THEN NULL ELSE c END, CASE WHEN st = '`+EmailSent+`' THEN c END, l FROM `+
			strings.TrimPrefix(unnestSelect([]string{"text", "text", "text", "text", "text", "text", "timestamp", "text", "bigint", "text"}), "SELECT * FROM ")+
			` AS u(i, t, s, b, k, v, c, st, a, l)`)
		args = append(args, ids, tos, subjects, bodies, kinds, vias, created, states, attempts, lists)
	}
	for _, r := range p.later {
		arrays, types, err := pgArrays(r.rows)
		if err != nil {
			return err
		}
		parts = append(parts, `INSERT INTO `+r.table+` (`+r.columns+`) `+unnestSelect(types))
		args = append(args, arrays...)
	}
	var last string
	if notify && len(p.changes) > 0 {
		payloads, err := p.takePayloads()
		if err != nil {
			return err
		}
		last = `SELECT pg_notify(?, pl) FROM unnest(?::text[]) AS pl`
		args = append(args, notifyChannel, payloads)
	} else if len(parts) > 0 {
		last, parts = parts[len(parts)-1], parts[:len(parts)-1]
	} else {
		return nil
	}
	var q strings.Builder
	for i, part := range parts {
		if i == 0 {
			q.WriteString("WITH ")
		} else {
			q.WriteString(", ")
		}
		fmt.Fprintf(&q, "w%d AS (%s)\n", i, part)
	}
	q.WriteString(last)
	if _, err := tx.execDirect(ctx, q.String(), args...); err != nil {
		return err
	}
	p.resetWork()
	return nil
}

// finish writes the group's pending work and sends its changes, just
// before the commit.
func (p *pending) finish(ctx context.Context, tx *Tx) error {
	if tx.db.dialect == Postgres {
		return p.writePostgres(ctx, tx, true)
	}
	if err := p.write(ctx, tx); err != nil {
		return err
	}
	return p.notify(ctx, tx)
}
