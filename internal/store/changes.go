package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
)

// Change events: the store tells whoever listens (the realtime hub) about
// every committed insert, update and delete of the tables the product shows
// live: waitlist sign-ups, contact messages, profiles and accounts. A write
// announces its rows inside its own transaction, so a change is delivered
// only once the write is committed, never for a write that is undone. On
// SQLite the change is handed over in process after the commit; on
// PostgreSQL it goes out with NOTIFY in the same transaction (PostgreSQL
// sends it at commit) and every instance LISTENing on the database receives
// it, so a console on instance B sees a sign-up stored by instance A.

// ChangeColumn is one column of a change's record, with its PostgreSQL type
// name as realtime clients expect it ("text", "bool", "int4", "jsonb",
// "timestamptz").
type ChangeColumn struct {
	Name string `json:"name"`
	Type string `json:"type"`
}

// changeTable is a table whose changes are announced: its public name, its
// SQL table, its primary key and the columns a change carries (never a
// password hash or a token).
type changeTable struct {
	name, sql, key string
	cols           []ChangeColumn
	// exprs are the SQL expressions of the columns not read as they are
	// stored, by name (a sign-up's program: its name from its code).
	exprs map[string]string
}

// The tables realtime clients may follow, by public name.
const (
	TableWaitlist = "waitlist_signups"
	TableMessages = "contact_messages"
	TableProfiles = "profiles"
	TableAccounts = "accounts"
)

func cols(spec string) []ChangeColumn {
	var out []ChangeColumn
	for _, f := range strings.Fields(spec) {
		name, typ, _ := strings.Cut(f, ":")
		out = append(out, ChangeColumn{Name: name, Type: typ})
	}
	return out
}

var changeTables = map[string]*changeTable{
	TableWaitlist: {name: TableWaitlist, sql: "waitlist_signups", key: "id", cols: cols(`id:text email:text program:text
		page_path:text referrer:text utm_source:text utm_medium:text utm_campaign:text utm_term:text utm_content:text
		unsubscribed_at:timestamptz created_at:timestamptz`), exprs: map[string]string{"program": programNameSQL("program")}},
	TableMessages: {name: TableMessages, sql: "contact_messages", key: "id", cols: cols(`id:text first_name:text last_name:text
		email:text phone_number:text subject:text message:text status:text note:text handled_at:timestamptz created_at:timestamptz`)},
	TableProfiles: {name: TableProfiles, sql: "profiles", key: "user_id", cols: cols(`user_id:text role:text full_name:text
		location:text age:int4 phone_number:text gender:text height:text waist_size:text style_description:text
		clothing_aesthetics:jsonb inspiration:text wants_clearance_program:bool body_photo_urls:jsonb profile_pic_url:text
		business_name:text registration_number:text business_mode:text logo_urls:jsonb created_at:timestamptz updated_at:timestamptz`)},
	TableAnnouncements: {name: TableAnnouncements, sql: "announcements", key: "id", cols: cols(`id:text program:text subject:text
		status:text rate_per_second:int4 all_queued:int4 recipients:int4 skipped:int4 queued:int4 sent:int4 failing:int4 bounced:int4
		failed:int4 created_at:timestamptz updated_at:timestamptz started_at:timestamptz finished_at:timestamptz`)},
	TableAccounts: {name: TableAccounts, sql: "users", key: "id", cols: cols(`id:text email:text is_admin:bool
		email_confirmed_at:timestamptz last_sign_in_at:timestamptz created_at:timestamptz updated_at:timestamptz`)},
}

// TableSessions is the table of the changes announcing ended sessions
// (signed out or revoked), each with the session's id and user_id. Realtime
// clients may not follow it (ChangeColumns and ChangeTables leave it out):
// it tells every instance's realtime hub to close that session's channels.
const TableSessions = "sessions"

// ChangeTables lists the public names of the tables whose changes are announced.
func ChangeTables() []string {
	return []string{TableWaitlist, TableMessages, TableProfiles, TableAccounts, TableAnnouncements}
}

// ChangeColumns returns the columns a change of table carries (nil for a
// table whose changes are not announced).
func ChangeColumns(table string) []ChangeColumn {
	if t := changeTables[table]; t != nil {
		return t.cols
	}
	return nil
}

// Change is one committed change of a row: Type INSERT, UPDATE or DELETE,
// Record the row as written (INSERT, UPDATE), OldRecord its primary key
// (UPDATE, DELETE), as PostgreSQL's default replica identity gives it.
type Change struct {
	Table           string         `json:"table"`
	Type            string         `json:"type"`
	Record          map[string]any `json:"record,omitempty"`
	OldRecord       map[string]any `json:"old_record,omitempty"`
	CommitTimestamp time.Time      `json:"commit_timestamp"`
	// lazyKey, on SQLite, is the key of an inserted or updated row whose
	// record was not read with the write because nobody followed changes
	// then; the feed reads the row after the commit if someone does by then.
	lazyKey string
}

// notifyChannel is the PostgreSQL channel changes travel on.
const notifyChannel = "salaula_changes"

// maxNotifyBytes bounds a NOTIFY payload (PostgreSQL's limit is 8000
// bytes): a change whose row is larger travels as its key alone and each
// listener reads the row.
const maxNotifyBytes = 7000

// notice is what a NOTIFY carries: the change, or with Key set and no
// Record, the key of a row too large to travel whole.
type notice struct {
	Change
	Key string `json:"key,omitempty"`
}

// insertNotice is the NOTIFY payload that announces, by its key, a row
// inserted into table.
func insertNotice(table, key string) string {
	// Strings and a time (of a year that has four digits): Marshal cannot fail.
	b, _ := json.Marshal([]notice{{Change: Change{Table: table, Type: "INSERT", CommitTimestamp: time.Now().UTC()}, Key: key}})
	return string(b)
}

// changeFeed hands committed changes to the listeners, off the writer's
// goroutine (a slow listener never holds up a commit).
type changeFeed struct {
	db      *DB
	mu      sync.Mutex
	subs    map[int]subscriber
	next    int
	queue   []Change
	wake    chan struct{}
	stop    chan struct{}
	done    chan struct{}
	started bool
	ready   chan struct{} // PostgreSQL: closed once LISTEN is in place
	closing sync.Once
	logger  *slog.Logger
}

func (db *DB) feed() *changeFeed {
	db.feedOnce.Do(func() {
		db.changes = &changeFeed{db: db, subs: map[int]subscriber{}, wake: make(chan struct{}, 1),
			stop: make(chan struct{}), done: make(chan struct{}), ready: make(chan struct{}), logger: slog.Default()}
	})
	return db.changes
}

// OnChange calls fn, from one goroutine of the store, with every change
// committed from now on (on PostgreSQL: by any instance on the database)
// until stop is called or the database is closed. fn must not block for
// long. On PostgreSQL OnChange returns once the LISTEN is in place (or
// after 5 s, while it keeps trying in the background).
func (db *DB) OnChange(fn func(Change)) (stop func()) {
	return db.OnChangeWhen(fn, nil)
}

// subscriber is one OnChangeWhen listener.
type subscriber struct {
	fn    func(Change)
	wants func() bool // nil: always
}

// OnChangeWhen is OnChange for a listener that tells whether it wants
// changes at the moment (wants, called often, must be quick and must not
// call the store): while no listener wants them, a SQLite insert announces
// its row by key alone instead of reading every announced column back, and
// the row is read after the commit only if a listener wants it by then.
func (db *DB) OnChangeWhen(fn func(Change), wants func() bool) (stop func()) {
	f := db.feed()
	f.mu.Lock()
	id := f.next
	f.next++
	f.subs[id] = subscriber{fn: fn, wants: wants}
	if !f.started {
		f.started = true
		go f.loop()
		if db.dialect == Postgres {
			go f.listen()
		} else {
			close(f.ready)
		}
	}
	f.mu.Unlock()
	select {
	case <-f.ready:
	case <-time.After(5 * time.Second):
	case <-f.stop:
	}
	return func() {
		f.mu.Lock()
		delete(f.subs, id)
		f.mu.Unlock()
	}
}

// wanted reports whether a listener wants changes now.
func (f *changeFeed) wanted() bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.wantedLocked()
}

// wantedLocked is wanted for a caller holding f.mu.
func (f *changeFeed) wantedLocked() bool {
	for _, s := range f.subs {
		if s.wants == nil || s.wants() {
			return true
		}
	}
	return false
}

func wantedBy(subs []subscriber) bool {
	for _, s := range subs {
		if s.wants == nil || s.wants() {
			return true
		}
	}
	return false
}

// push queues changes for the listeners. While none of them wants changes
// (no realtime client follows any), they are dropped here, sparing the
// feed's goroutine a wake-up per commit; a listener sees the changes
// committed once it wants them.
func (f *changeFeed) push(cs ...Change) {
	f.mu.Lock()
	wanted := f.wantedLocked()
	if wanted {
		f.queue = append(f.queue, cs...)
	}
	f.mu.Unlock()
	if !wanted {
		return
	}
	select {
	case f.wake <- struct{}{}:
	default:
	}
}

func (f *changeFeed) loop() {
	defer close(f.done)
	for {
		select {
		case <-f.wake:
		case <-f.stop:
			return
		}
		f.mu.Lock()
		q := f.queue
		f.queue = nil
		subs := make([]subscriber, 0, len(f.subs))
		for _, s := range f.subs {
			subs = append(subs, s)
		}
		f.mu.Unlock()
		for _, c := range q {
			if c.lazyKey != "" {
				if !wantedBy(subs) {
					continue
				}
				rec, err := f.db.readChangeRow(context.Background(), c.Table, c.lazyKey)
				if errors.Is(err, ErrNotFound) {
					continue // deleted since; its DELETE follows
				}
				if err != nil {
					f.logger.Error("change feed: read row", "table", c.Table, "err", err)
					continue
				}
				c.Record, c.lazyKey = rec, ""
			}
			for _, s := range subs {
				s.fn(c)
			}
		}
	}
}

// listen keeps a connection LISTENing for changes on PostgreSQL,
// reconnecting after a second when it breaks. Changes committed while it
// is reconnecting are not seen by this instance.
func (f *changeFeed) listen() {
	ctx, cancel := context.WithCancel(context.Background())
	go func() { <-f.stop; cancel() }()
	readyOnce := sync.Once{}
	for ctx.Err() == nil {
		err := f.listenOnce(ctx, func() { readyOnce.Do(func() { close(f.ready) }) })
		if ctx.Err() != nil {
			return
		}
		f.logger.Warn("change listener: reconnecting", "err", err)
		select {
		case <-time.After(time.Second):
		case <-ctx.Done():
		}
	}
}

func (f *changeFeed) listenOnce(ctx context.Context, ready func()) error {
	conn, err := pgx.Connect(ctx, f.db.url)
	if err != nil {
		return err
	}
	defer conn.Close(context.Background())
	if _, err := conn.Exec(ctx, "LISTEN "+notifyChannel); err != nil {
		return err
	}
	ready()
	for {
		n, err := conn.WaitForNotification(ctx)
		if err != nil {
			return err
		}
		if !f.wanted() {
			// Nobody here follows changes: push would drop them, so
			// they are not even decoded.
			continue
		}
		nts, err := decodeNotices(n.Payload)
		if err != nil {
			f.logger.Error("change listener: bad payload", "err", err)
			continue
		}
		for _, nt := range nts {
			if nt.Key != "" && nt.Record == nil && nt.Type != "DELETE" {
				// The row travelled by key: the feed's goroutine reads
				// it, if a listener still wants it then.
				nt.lazyKey = nt.Key
			}
			f.push(nt.Change)
		}
	}
}

// closeOnce stops the feed and its listener (idempotent).
func (f *changeFeed) closeOnce() { f.closing.Do(f.close) }

func (f *changeFeed) close() {
	f.mu.Lock()
	started := f.started
	f.started = true // no loop starts after close
	f.mu.Unlock()
	close(f.stop)
	if started {
		<-f.done
	}
}

// readChangeRow reads the announced columns of one row of table by key.
func (db *DB) readChangeRow(ctx context.Context, table, key string) (map[string]any, error) {
	t := changeTables[table]
	rows, err := db.Query(ctx, t.selectSQL()+` WHERE `+t.key+` = ?`, key)
	if err != nil {
		return nil, err
	}
	recs, err := t.scan(rows)
	if err != nil {
		return nil, err
	}
	if len(recs) == 0 {
		return nil, ErrNotFound
	}
	return recs[0], nil
}

func (t *changeTable) selectSQL() string {
	return `SELECT ` + t.colList() + ` FROM ` + t.sql
}

// colList is the announced columns, comma-separated.
func (t *changeTable) colList() string {
	names := make([]string, len(t.cols))
	for i, c := range t.cols {
		names[i] = c.Name
		if e, ok := t.exprs[c.Name]; ok {
			names[i] = e + " AS " + c.Name
		}
	}
	return strings.Join(names, ", ")
}

// scan reads every row as a record of JSON-ready values by column type.
func (t *changeTable) scan(rows interface {
	Next() bool
	Scan(...any) error
	Err() error
	Close() error
}) ([]map[string]any, error) {
	defer rows.Close()
	var out []map[string]any
	vals := make([]any, len(t.cols))
	ptrs := make([]any, len(t.cols))
	for rows.Next() {
		for i := range vals {
			vals[i] = nil
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			return nil, err
		}
		rec := make(map[string]any, len(t.cols))
		for i, c := range t.cols {
			rec[c.Name] = jsonValue(c.Type, vals[i])
		}
		out = append(out, rec)
	}
	return out, rows.Err()
}

// jsonValue turns a scanned value into what a change record carries for a
// column of type typ, the same on both engines.
func jsonValue(typ string, v any) any {
	if b, ok := v.([]byte); ok {
		v = string(b)
	}
	if v == nil {
		return nil
	}
	switch typ {
	case "bool":
		switch x := v.(type) {
		case bool:
			return x
		case int64:
			return x != 0
		case string:
			return x == "1" || x == "t" || x == "true"
		}
	case "int4":
		switch x := v.(type) {
		case int64:
			return x
		case int32:
			return int64(x)
		}
	case "timestamptz":
		switch x := v.(type) {
		case time.Time:
			return x.UTC().Format(time.RFC3339Nano)
		case int64: // SQLite's microseconds, read without the column's type
			return time.UnixMicro(x).UTC().Format(time.RFC3339Nano)
		case string:
			if tm, err := parseStoredTime(x); err == nil {
				return tm.UTC().Format(time.RFC3339Nano)
			}
		}
	case "jsonb":
		if s, ok := v.(string); ok && json.Valid([]byte(s)) {
			return json.RawMessage(s)
		}
	}
	return v
}

// parseStoredTime reads a time SQLite returned as text.
func parseStoredTime(s string) (time.Time, error) {
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02 15:04:05.999999999-07:00", "2006-01-02 15:04:05.999999999Z07:00",
		"2006-01-02 15:04:05.999999999", "2006-01-02T15:04:05.999999999"} {
		if t, err := time.Parse(layout, s); err == nil {
			return t, nil
		}
	}
	return time.Time{}, fmt.Errorf("unknown time format %q", s)
}

// Announce reads the rows of table that where selects (its '?' arguments
// in args) and announces them as changes of type op, to be delivered once
// tx commits. Call it after an INSERT or UPDATE (the rows as written) and
// before a DELETE (the rows about to go; only their keys travel).
func (t *Tx) Announce(ctx context.Context, table, op, where string, args ...any) error {
	ct := changeTables[table]
	if ct == nil {
		return fmt.Errorf("announce: unknown table %q", table)
	}
	rows, err := t.Query(ctx, ct.selectSQL()+` WHERE `+where, args...)
	if err != nil {
		return err
	}
	return t.announceRows(ctx, ct, op, rows)
}

// announceRows announces rows, each a row of ct's announced columns, as
// changes of type op (see Announce).
func (t *Tx) announceRows(ctx context.Context, ct *changeTable, op string, rows *sql.Rows) error {
	recs, err := ct.scan(rows)
	if err != nil {
		return err
	}
	table := ct.name
	now := time.Now().UTC()
	changes := make([]Change, 0, len(recs))
	for _, rec := range recs {
		c := Change{Table: table, Type: op, CommitTimestamp: now}
		key := map[string]any{ct.key: rec[ct.key]}
		switch op {
		case "INSERT":
			c.Record = rec
		case "UPDATE":
			c.Record, c.OldRecord = rec, key
		case "DELETE":
			c.OldRecord = key
		}
		changes = append(changes, c)
	}
	return t.emit(ctx, changes)
}

// announceKey announces the row of table whose key is key as a change of
// type op (INSERT or UPDATE), as Announce does; on SQLite, while nobody
// follows changes, without reading the row: the feed reads it after the
// commit if someone follows by then (a sign-in's last_sign_in_at, say).
func (t *Tx) announceKey(ctx context.Context, table, op, key string) error {
	ct := changeTables[table]
	if ct == nil {
		return fmt.Errorf("announce: unknown table %q", table)
	}
	if t.db.dialect == Postgres || t.db.feed().wanted() {
		return t.Announce(ctx, table, op, ct.key+` = ?`, key)
	}
	c := Change{Table: table, Type: op, lazyKey: key}
	if op == "UPDATE" {
		c.OldRecord = map[string]any{ct.key: key}
	}
	return t.emit(ctx, []Change{c})
}

// insertAnnounced runs query, an INSERT into table's SQL table without a
// RETURNING clause, and announces the rows it inserted as the insert
// itself returns them (RETURNING the announced columns: exactly what is
// stored, defaults included, with no SELECT after it); it returns how many
// rows it inserted.
func (t *Tx) insertAnnounced(ctx context.Context, table, query string, args ...any) (int, error) {
	ct := changeTables[table]
	if ct == nil {
		return 0, fmt.Errorf("announce: unknown table %q", table)
	}
	if t.db.dialect != Postgres && !t.db.feed().wanted() {
		// Nobody follows changes now: the key is enough (see OnChangeWhen).
		return t.insertAnnouncedByKey(ctx, ct, query, args...)
	}
	rows, err := t.Query(ctx, query+` RETURNING `+ct.colList(), args...)
	if err != nil {
		return 0, err
	}
	recs, err := ct.scan(rows)
	if err != nil {
		return 0, err
	}
	now := time.Now().UTC()
	changes := make([]Change, len(recs))
	for i, rec := range recs {
		changes[i] = Change{Table: table, Type: "INSERT", Record: rec, CommitTimestamp: now}
	}
	return len(recs), t.emit(ctx, changes)
}

// insertAnnouncedByKey is insertAnnounced returning only the inserted rows'
// keys, their records to be read after the commit if wanted by then.
func (t *Tx) insertAnnouncedByKey(ctx context.Context, ct *changeTable, query string, args ...any) (int, error) {
	rows, err := t.Query(ctx, query+` RETURNING `+ct.key, args...)
	if err != nil {
		return 0, err
	}
	defer rows.Close()
	var changes []Change
	for rows.Next() {
		var key string
		if err := rows.Scan(&key); err != nil {
			return 0, err
		}
		changes = append(changes, Change{Table: ct.name, Type: "INSERT", lazyKey: key})
	}
	if err := rows.Err(); err != nil {
		return 0, err
	}
	return len(changes), t.emit(ctx, changes)
}

// emit hands changes over at commit: NOTIFY in the transaction on
// PostgreSQL, after the commit in process on SQLite.
func (t *Tx) emit(ctx context.Context, changes []Change) error {
	if len(changes) == 0 {
		return nil
	}
	if t.db.dialect != Postgres {
		f := t.db.feed()
		t.AfterCommit(func() {
			now := time.Now().UTC()
			for i := range changes {
				changes[i].CommitTimestamp = now
			}
			f.push(changes...)
		})
		return nil
	}
	return t.notify(ctx, changes)
}

// notify sends changes with NOTIFY in t: as many changes to a payload as
// fit under maxNotifyBytes (a JSON array of notices; a change too large
// alone travels as its key), every payload in one statement. PostgreSQL
// delivers them at commit, in order, never when t's write is undone.
func (t *Tx) notify(ctx context.Context, changes []Change) error {
	now := time.Now().UTC() // just before COMMIT: the payload is fixed here
	for i := range changes {
		changes[i].CommitTimestamp = now
	}
	payloads, err := notifyPayloads(changes)
	if err != nil {
		return err
	}
	var q strings.Builder
	args := make([]any, 0, 2*len(payloads))
	q.WriteString("SELECT ")
	for i, pl := range payloads {
		if i > 0 {
			q.WriteString(", ")
		}
		q.WriteString("pg_notify(?, ?)")
		args = append(args, notifyChannel, pl)
	}
	_, err = t.Exec(ctx, q.String(), args...)
	return err
}

// notifyPayloads packs changes, in order, into JSON arrays of notices of
// at most maxNotifyBytes each.
func notifyPayloads(changes []Change) ([]string, error) {
	var out []string
	var buf []byte
	for _, c := range changes {
		b, err := json.Marshal(notice{Change: c})
		if err != nil {
			return nil, err
		}
		if len(b)+2 > maxNotifyBytes {
			ct := changeTables[c.Table]
			key, _ := c.Record[ct.key].(string)
			small := notice{Change: Change{Table: c.Table, Type: c.Type, OldRecord: c.OldRecord, CommitTimestamp: c.CommitTimestamp}, Key: key}
			if b, err = json.Marshal(small); err != nil {
				return nil, err
			}
		}
		if len(buf) > 0 && len(buf)+1+len(b)+1 > maxNotifyBytes {
			out = append(out, string(append(buf, ']')))
			buf = buf[:0]
		}
		if len(buf) == 0 {
			buf = append(buf, '[')
		} else {
			buf = append(buf, ',')
		}
		buf = append(buf, b...)
	}
	if len(buf) > 0 {
		out = append(out, string(append(buf, ']')))
	}
	return out, nil
}

// decodeNotices reads a NOTIFY payload: a JSON array of notices, or one
// notice alone (as sent before changes were batched).
func decodeNotices(payload string) ([]notice, error) {
	var nts []notice
	if strings.HasPrefix(strings.TrimSpace(payload), "[") {
		err := json.Unmarshal([]byte(payload), &nts)
		return nts, err
	}
	var nt notice
	if err := json.Unmarshal([]byte(payload), &nt); err != nil {
		return nil, err
	}
	return append(nts, nt), nil
}

// changeTableOf returns the public name of the SQL table sqlTable when its
// changes are announced, else "".
func changeTableOf(sqlTable string) string {
	for name, t := range changeTables {
		if t.sql == sqlTable {
			return name
		}
	}
	return ""
}

// announceUpsert runs write, an insert-or-update of the row of table whose
// key is key, and announces it as an INSERT or an UPDATE.
func announceUpsert(ctx context.Context, tx *Tx, table, key string, write func() error) error {
	ct := changeTables[table]
	var one int
	err := tx.QueryRow(ctx, `SELECT 1 FROM `+ct.sql+` WHERE `+ct.key+` = ?`, key).Scan(&one)
	op := "UPDATE"
	if errors.Is(err, sql.ErrNoRows) {
		op = "INSERT"
	} else if err != nil {
		return err
	}
	if err := write(); err != nil {
		return err
	}
	return tx.Announce(ctx, table, op, ct.key+` = ?`, key)
}

// updateAccounts runs UPDATE users SET set WHERE where (args: those of set,
// then those of where) and announces the accounts it changed; ErrNotFound
// when none matched.
func (db *DB) updateAccounts(ctx context.Context, set, where string, args ...any) error {
	return db.InTx(ctx, func(tx *Tx) error {
		rows, err := tx.Query(ctx, `UPDATE users SET `+set+` WHERE `+where+` RETURNING id`, args...)
		if err != nil {
			return err
		}
		var ids []string
		for rows.Next() {
			var id string
			if err := rows.Scan(&id); err != nil {
				rows.Close()
				return err
			}
			ids = append(ids, id)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
		if len(ids) == 0 {
			return ErrNotFound
		}
		for _, id := range ids {
			if err := tx.Announce(ctx, TableAccounts, "UPDATE", `id = ?`, id); err != nil {
				return err
			}
		}
		return nil
	})
}
