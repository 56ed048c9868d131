package store

import (
	"context"
	"slices"
	"strings"
	"time"
)

// pending is the work a group commit's writes leave for the end of the
// group: the waitlist roll-up increments and the outbox e-mails of every
// write kept so far. Each write's own part is added to the group's only
// once its savepoint is released, and the group's is written just before
// the commit (few multi-row statements instead of three statements per
// sign-up), so it is kept exactly when the writes it belongs to are.
// Before any statement that reads or changes those tables, the group's
// pending work is written first, so every statement sees the writes made
// before it, as without deferral.
//
// On PostgreSQL the change announcements of the kept writes wait here too
// (changes) and go out just before the commit in as few NOTIFYs as fit,
// in the same statement as the rest of the pending work (see
// writePostgres). Nothing reads them inside the transaction, so they are
// never written early: write leaves them, and only the group commit moves
// a write's changes into the group's (keep).
type pending struct {
	// joins are the waitlist sign-ups counted, one entry each; just
	// before writing (settle) they are tallied into daily and counts, the
	// roll-up increments by key. A write's own pending holds one entry
	// where it held two maps, so a sign-up's roll-ups cost no map of its
	// own; the group's maps are kept from group to group.
	joins   []waitlistJoin
	daily   map[dailyKey]int64
	counts  map[countsKey]int64
	emails  []*OutboxEmail
	later   []*laterRows   // rows of InsertLater
	counted []*countedRows // counts of CountLater
	changes []Change
}

type dailyKey struct{ day, program string }

// waitlistJoin is one counted sign-up's roll-up keys.
type waitlistJoin struct {
	daily  dailyKey
	counts countsKey
}

// countsKey is waitlist_counts' primary key, in the order of waitlistKey.
type countsKey struct{ program, utmSource, utmCampaign, referrer, pagePath string }

func (p *pending) empty() bool {
	return len(p.joins) == 0 && len(p.daily) == 0 && len(p.counts) == 0 && len(p.emails) == 0 && len(p.later) == 0 && len(p.counted) == 0
}

// reset empties p, its changes included.
func (p *pending) reset() {
	p.resetWork()
	clear(p.changes)
	p.changes = p.changes[:0]
}

// resetWork empties p's roll-ups and e-mails, leaving its changes.
func (p *pending) resetWork() {
	clear(p.joins)
	p.joins = p.joins[:0]
	clear(p.daily)
	clear(p.counts)
	clear(p.emails)
	p.emails = p.emails[:0]
	clear(p.later)
	p.later = p.later[:0]
	clear(p.counted)
	p.counted = p.counted[:0]
}

// keep moves the work of q, a write whose savepoint was released, into p,
// its changes included.
func (p *pending) keep(q *pending) {
	p.add(q)
	p.changes = append(p.changes, q.changes...)
}

// add moves q's roll-ups and e-mails into p (not its changes: see keep).
func (p *pending) add(q *pending) {
	p.joins = append(p.joins, q.joins...)
	if len(q.daily) > 0 || len(q.counts) > 0 {
		p.makeRollUps()
		for k, n := range q.daily {
			p.daily[k] += n
		}
		for k, n := range q.counts {
			p.counts[k] += n
		}
	}
	p.emails = append(p.emails, q.emails...)
	for _, r := range q.later {
		p.addLater(r.table, r.columns, r.rows...)
	}
	for _, c := range q.counted {
		for i, key := range c.keys {
			p.addCount(c.table, c.columns, c.countColumn, key, c.n[i])
		}
	}
}

// join counts sign-up s in the waitlist roll-ups.
func (p *pending) join(s *WaitlistSignup) {
	p.joins = append(p.joins, waitlistJoin{dailyKey{s.CreatedAt.UTC().Format(time.DateOnly), s.Program},
		countsKey{s.Program, s.UTMSource, s.UTMCampaign, s.Referrer, s.PagePath}})
}

// makeRollUps makes p's roll-up maps when it has none.
func (p *pending) makeRollUps() {
	if p.daily == nil {
		p.daily, p.counts = map[dailyKey]int64{}, map[countsKey]int64{}
	}
}

// settle readies p's work for writing: the sign-ups counted are tallied
// into the roll-ups by key, and the counts become InsertLater rows.
func (p *pending) settle() {
	if len(p.joins) > 0 {
		p.makeRollUps()
		for _, j := range p.joins {
			p.daily[j.daily]++
			p.counts[j.counts]++
		}
		clear(p.joins)
		p.joins = p.joins[:0]
	}
	p.countsToLater()
}

// touchesPending reports whether query reads or changes a table that
// pending work writes to, so that this work must be written before it.
func touchesPending(query string) bool {
	return strings.Contains(query, "outbox_emails") || strings.Contains(query, "waitlist_counts") ||
		strings.Contains(query, "waitlist_daily")
}

// Multi-row statements take at most chunkSizes[0] rows. A group's rows go
// out in chunks of those sizes while more than exactRows remain, and the
// rest in one statement of exactly their number, so a group of up to
// exactRows writes (nearly every one) makes one statement a table, and
// only a few statement texts are ever prepared.
var chunkSizes = [...]int{64, 16}

const exactRows = 16

// write writes p's roll-ups and e-mails with tx's own statements and
// empties them (its changes stay for notify). Rows are
// written in key order, so concurrent writers on PostgreSQL take the
// roll-up rows' locks in the same order.
func (p *pending) write(ctx context.Context, tx *Tx) error {
	if tx.db.dialect == Postgres {
		return p.writePostgres(ctx, tx, false)
	}
	p.settle()
	if len(p.daily) > 0 {
		keys := p.dailyKeys()
		if err := chunked(ctx, tx, len(keys), `INSERT INTO waitlist_daily (day, program, signups) VALUES `, `(?, ?, ?)`,
			` ON CONFLICT (day, program) DO UPDATE SET signups = waitlist_daily.signups + excluded.signups`,
			func(i int, args []any) []any { return append(args, keys[i].day, keys[i].program, p.daily[keys[i]]) }); err != nil {
			return err
		}
	}
	if len(p.counts) > 0 {
		keys := p.countsKeys()
		if err := chunked(ctx, tx, len(keys), `INSERT INTO waitlist_counts (`+waitlistKey+`, subscribed, unsubscribed) VALUES `, `(?, ?, ?, ?, ?, ?, 0)`,
			` ON CONFLICT (`+waitlistKey+`) DO UPDATE SET subscribed = waitlist_counts.subscribed + excluded.subscribed`,
			func(i int, args []any) []any {
				k := keys[i]
				return append(args, k.program, k.utmSource, k.utmCampaign, k.referrer, k.pagePath, p.counts[k])
			}); err != nil {
			return err
		}
	}
	if len(p.emails) > 0 {
		if err := chunked(ctx, tx, len(p.emails),
			`INSERT INTO `+emailInsertColumns+` VALUES `,
			valuesRow(12), ``,
			func(i int, args []any) []any { return append(args, p.emails[i].emailRow()...) }); err != nil {
			return err
		}
	}
	for _, r := range p.later {
		if err := chunked(ctx, tx, len(r.rows), `INSERT INTO `+r.table+` (`+r.columns+`) VALUES `, valuesRow(len(r.rows[0])), ``,
			func(i int, args []any) []any { return append(args, r.rows[i]...) }); err != nil {
			return err
		}
	}
	p.resetWork()
	return nil
}

// dailyKeys returns p's waitlist_daily keys in order.
func (p *pending) dailyKeys() []dailyKey {
	return sortedKeys(p.daily, func(k dailyKey) string { return k.day + "\x00" + k.program })
}

// countsKeys returns p's waitlist_counts keys in order.
func (p *pending) countsKeys() []countsKey {
	return sortedKeys(p.counts, func(k countsKey) string {
		return k.program + "\x00" + k.utmSource + "\x00" + k.utmCampaign + "\x00" + k.referrer + "\x00" + k.pagePath
	})
}

// sortedKeys returns m's keys ordered by what str makes of them.
func sortedKeys[K comparable](m map[K]int64, str func(K) string) []K {
	keys := make([]K, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b K) int { return strings.Compare(str(a), str(b)) })
	return keys
}

// chunked writes n rows with multi-row statements head + row, row... + tail,
// cut as eachChunk cuts them; rowArgs appends row i's arguments.
func chunked(ctx context.Context, tx *Tx, n int, head, row, tail string, rowArgs func(i int, args []any) []any) error {
	var args []any
	return eachChunk(n, func(i, size int) error {
		args = args[:0]
		for j := i; j < i+size; j++ {
			args = rowArgs(j, args)
		}
		_, err := tx.execDirect(ctx, head+row+strings.Repeat(", "+row, size-1)+tail, args...)
		return err
	})
}

// eachChunk cuts n rows into chunks (see chunkSizes) and calls fn with each
// chunk's first row and size, stopping at the first error.
func eachChunk(n int, fn func(i, size int) error) error {
	for i := 0; i < n; {
		size := n - i
		if size > exactRows {
			for _, c := range chunkSizes {
				if c <= size {
					size = c
					break
				}
			}
		}
		if err := fn(i, size); err != nil {
			return err
		}
		i += size
	}
	return nil
}
