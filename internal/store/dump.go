package store

import (
	"context"
	"database/sql"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
	"time"
)

// A portable dump is every table of the database (but the migrations'
// bookkeeping) as rows of plain values, so that a dump of one engine loads
// into the other: Dump reads rows in one consistent snapshot, Load writes
// them into a new database in that engine's own formats (timestamps as its
// driver writes them, booleans as the engine keeps them).

// ColumnKind says how a column's values travel in a dump.
type ColumnKind string

// The kinds of column the schema uses.
const (
	KindText    ColumnKind = "text"
	KindInteger ColumnKind = "integer"
	KindReal    ColumnKind = "real"
	KindBool    ColumnKind = "bool"
	KindTime    ColumnKind = "timestamp"
	KindBlob    ColumnKind = "blob"
)

// DumpTable is one table of a dump: its name and columns.
type DumpTable struct {
	Name    string
	Columns []string
	Kinds   []ColumnKind
}

// DumpWriter receives a dump: each table, then its rows. A row's values
// are nil, int64, float64, bool, string, []byte or time.Time (in UTC).
type DumpWriter interface {
	Table(t DumpTable) error
	Row(values []any) error
}

// DumpReader gives Load a dump: NextTable returns the next table's name and
// columns (io.EOF after the last), NextRow the table's next row (io.EOF
// after its last) as JSON decoded it with UseNumber (nil, bool,
// json.Number, string; a timestamp as RFC 3339 text, bytes as base64).
type DumpReader interface {
	NextTable() (name string, columns []string, err error)
	NextRow() ([]any, error)
}

// ErrNotEmpty is returned by Load when the target already holds data.
var ErrNotEmpty = errors.New("the database is not empty")

// Loaded is what Load wrote.
type Loaded struct {
	Rows map[string]int64 // each table's row count
	// Cleaned counts, per table, the rows whose text held NUL bytes, which
	// PostgreSQL cannot hold: Load writes them without (an archive of a
	// SQLite database written before requests were checked, decision 0221).
	Cleaned map[string]int64
}

// RowError is a row of a dump that could not be loaded: its table, its
// place (1 for the table's first row) and its id when it has one.
type RowError struct {
	Table string
	Row   int64
	ID    string
	Err   error
}

func (e *RowError) Error() string {
	id := ""
	if e.ID != "" {
		id = ", id " + e.ID
	}
	return fmt.Sprintf("table %s, row %d%s: %v", e.Table, e.Row, id, e.Err)
}

func (e *RowError) Unwrap() error { return e.Err }

// bookkeeping tables are the migrations' own, never dumped.
func bookkeeping(name string) bool {
	return name == "goose_db_version" || name == "schema_migrations" || strings.HasPrefix(name, "sqlite_")
}

// Dump reads every table in one snapshot (a read transaction on SQLite; a
// REPEATABLE READ transaction on PostgreSQL), tables referenced by others
// first, and hands them to w. Writes carry on meanwhile.
func (db *DB) Dump(ctx context.Context, w DumpWriter) error {
	opts := &sql.TxOptions{ReadOnly: true}
	if db.dialect == Postgres {
		opts.Isolation = sql.LevelRepeatableRead
	}
	tx, err := db.sql.BeginTx(ctx, opts)
	if err != nil {
		return fmt.Errorf("dump: begin a snapshot: %w", err)
	}
	defer tx.Rollback()
	tables, err := db.dumpTables(ctx, tx)
	if err != nil {
		return err
	}
	for _, t := range tables {
		if err := w.Table(t); err != nil {
			return err
		}
		if err := db.dumpRows(ctx, tx, t, w); err != nil {
			return fmt.Errorf("dump %s: %w", t.Name, err)
		}
	}
	return nil
}

func (db *DB) dumpRows(ctx context.Context, tx *sql.Tx, t DumpTable, w DumpWriter) error {
	rows, err := tx.QueryContext(ctx, "SELECT "+quoteList(t.Columns)+" FROM "+quoteIdent(t.Name))
	if err != nil {
		return err
	}
	defer rows.Close()
	raw := make([]any, len(t.Columns))
	ptrs := make([]any, len(raw))
	for i := range raw {
		ptrs[i] = &raw[i]
	}
	for rows.Next() {
		if err := rows.Scan(ptrs...); err != nil {
			return err
		}
		out := make([]any, len(raw))
		for i, v := range raw {
			if out[i], err = portable(t.Kinds[i], v); err != nil {
				return fmt.Errorf("column %s: %w", t.Columns[i], err)
			}
		}
		if err := w.Row(out); err != nil {
			return err
		}
	}
	return rows.Err()
}

// portable turns a value as the driver scanned it into the dump's value for
// a column of kind k.
func portable(k ColumnKind, v any) (any, error) {
	if v == nil {
		return nil, nil
	}
	switch k {
	case KindBool:
		switch x := v.(type) {
		case bool:
			return x, nil
		case int64:
			return x != 0, nil
		}
	case KindInteger:
		switch x := v.(type) {
		case int64:
			return x, nil
		case int32:
			return int64(x), nil
		case float64:
			return int64(x), nil
		}
	case KindReal:
		switch x := v.(type) {
		case float64:
			return x, nil
		case float32:
			return float64(x), nil
		case int64:
			return float64(x), nil
		}
	case KindTime:
		switch x := v.(type) {
		case time.Time:
			return x.UTC(), nil
		case string:
			return parseTime(x)
		case []byte:
			return parseTime(string(x))
		}
	case KindBlob:
		switch x := v.(type) {
		case []byte:
			return append([]byte(nil), x...), nil
		case string:
			return []byte(x), nil
		}
	default:
		switch x := v.(type) {
		case string:
			return x, nil
		case []byte:
			return string(x), nil
		case int64, float64, bool:
			return fmt.Sprint(x), nil
		}
	}
	return nil, fmt.Errorf("unexpected %T for a %s column", v, k)
}

// timeLayouts are the ways a timestamp may be written in a SQLite file:
// Go's time.Time.String (the driver's default), RFC 3339, SQLite's own.
var timeLayouts = []string{
	"2006-01-02 15:04:05.999999999 -0700 MST",
	time.RFC3339Nano,
	"2006-01-02 15:04:05.999999999-07:00",
	"2006-01-02T15:04:05.999999999",
	"2006-01-02 15:04:05.999999999",
	"2006-01-02",
}

func parseTime(s string) (time.Time, error) {
	if i := strings.Index(s, " m="); i >= 0 { // a monotonic clock reading
		s = s[:i]
	}
	for _, l := range timeLayouts {
		if t, err := time.Parse(l, s); err == nil {
			return t.UTC(), nil
		}
	}
	return time.Time{}, fmt.Errorf("timestamp %q: unknown format", s)
}

// dumpTables lists the tables with their columns, each after the tables it
// references.
func (db *DB) dumpTables(ctx context.Context, q querier) ([]DumpTable, error) {
	var names []string
	query := `SELECT name FROM sqlite_master WHERE type = 'table'`
	if db.dialect == Postgres {
		query = `SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'`
	}
	rows, err := q.QueryContext(ctx, query)
	if err != nil {
		return nil, fmt.Errorf("list tables: %w", err)
	}
	for rows.Next() {
		var n string
		if err := rows.Scan(&n); err != nil {
			rows.Close()
			return nil, err
		}
		if !bookkeeping(n) {
			names = append(names, n)
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	sort.Strings(names)
	refs := map[string][]string{}
	byName := map[string]DumpTable{}
	for _, n := range names {
		t, err := db.tableColumns(ctx, q, n)
		if err != nil {
			return nil, err
		}
		byName[n] = t
		if refs[n], err = db.tableReferences(ctx, q, n); err != nil {
			return nil, err
		}
	}
	var out []DumpTable
	done := map[string]bool{}
	for len(out) < len(names) {
		progress := false
		for _, n := range names {
			if done[n] {
				continue
			}
			ready := true
			for _, r := range refs[n] {
				if r != n && !done[r] && byName[r].Name != "" {
					ready = false
				}
			}
			if ready {
				done[n], progress = true, true
				out = append(out, byName[n])
			}
		}
		if !progress {
			return nil, errors.New("dump: the tables reference each other in a circle")
		}
	}
	return out, nil
}

func (db *DB) tableColumns(ctx context.Context, q querier, table string) (DumpTable, error) {
	query := `SELECT name, type FROM pragma_table_info(?) ORDER BY cid`
	if db.dialect == Postgres {
		query = `SELECT column_name, data_type FROM information_schema.columns
			WHERE table_schema = current_schema() AND table_name = $1 ORDER BY ordinal_position`
	}
	rows, err := q.QueryContext(ctx, query, table)
	if err != nil {
		return DumpTable{}, fmt.Errorf("columns of %s: %w", table, err)
	}
	defer rows.Close()
	t := DumpTable{Name: table}
	for rows.Next() {
		var name, typ string
		if err := rows.Scan(&name, &typ); err != nil {
			return t, err
		}
		t.Columns = append(t.Columns, name)
		t.Kinds = append(t.Kinds, kindOf(typ))
	}
	return t, rows.Err()
}

// kindOf maps a declared (SQLite) or catalogued (PostgreSQL) type to a kind.
func kindOf(typ string) ColumnKind {
	t := strings.ToUpper(typ)
	switch {
	case strings.Contains(t, "BOOL"):
		return KindBool
	case strings.Contains(t, "TIMESTAMP") || strings.Contains(t, "DATE"):
		return KindTime
	case strings.Contains(t, "INT"):
		return KindInteger
	case strings.Contains(t, "REAL") || strings.Contains(t, "DOUBLE") || strings.Contains(t, "FLOAT") || strings.Contains(t, "NUMERIC"):
		return KindReal
	case strings.Contains(t, "BLOB") || strings.Contains(t, "BYTEA"):
		return KindBlob
	}
	return KindText
}

func (db *DB) tableReferences(ctx context.Context, q querier, table string) ([]string, error) {
	query := `SELECT DISTINCT "table" FROM pragma_foreign_key_list(?)`
	if db.dialect == Postgres {
		query = `SELECT DISTINCT c.relname FROM pg_constraint k JOIN pg_class c ON c.oid = k.confrelid
			WHERE k.contype = 'f' AND k.conrelid = to_regclass(quote_ident($1))`
	}
	rows, err := q.QueryContext(ctx, query, table)
	if err != nil {
		return nil, fmt.Errorf("references of %s: %w", table, err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var n string
		if err := rows.Scan(&n); err != nil {
			return nil, err
		}
		out = append(out, n)
	}
	return out, rows.Err()
}

// HasTables reports whether the database holds any table yet (a new
// PostgreSQL database or SQLite file has none until it is migrated).
func (db *DB) HasTables(ctx context.Context) (bool, error) {
	query := `SELECT COUNT(*) FROM sqlite_master WHERE type = 'table'`
	if db.dialect == Postgres {
		query = `SELECT COUNT(*) FROM information_schema.tables WHERE table_schema = current_schema()`
	}
	var n int
	if err := db.sql.QueryRowContext(ctx, query).Scan(&n); err != nil {
		return false, err
	}
	return n > 0, nil
}

// DropTables drops every table and sequence of a PostgreSQL database's
// current schema (the migrations' bookkeeping too), with their indexes: what
// a restore that failed does to the empty database it migrated, so that it
// is left as it was given (backup.Restore). SQLite's restore removes its
// files instead.
func (db *DB) DropTables(ctx context.Context) error {
	if db.dialect != Postgres {
		return errors.New("drop tables: only on PostgreSQL")
	}
	rows, err := db.sql.QueryContext(ctx, `SELECT table_name FROM information_schema.tables
		WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'`)
	if err != nil {
		return err
	}
	var names []string
	for rows.Next() {
		var n string
		if err := rows.Scan(&n); err != nil {
			rows.Close()
			return err
		}
		names = append(names, quoteIdent(n))
	}
	rows.Close()
	if err := rows.Err(); err != nil || len(names) == 0 {
		return err
	}
	if _, err := db.sql.ExecContext(ctx, "DROP TABLE IF EXISTS "+strings.Join(names, ", ")+" CASCADE"); err != nil {
		return err
	}
	// The sequences no table owns (the waitlists' lines, migration 0045).
	_, err = db.sql.ExecContext(ctx, `DO $$ DECLARE s text; BEGIN
		FOR s IN SELECT quote_ident(sequence_name) FROM information_schema.sequences WHERE sequence_schema = current_schema() LOOP
			EXECUTE 'DROP SEQUENCE IF EXISTS ' || s || ' CASCADE';
		END LOOP; END $$`)
	return err
}

// retiredTable is a table of archives made by an earlier version that the
// schema no longer has: Load puts its rows in a temporary table of that
// name (create), then moves them to where they are kept now (apply; none
// for what Load counts again).
type retiredTable struct {
	create, apply string
	columns       DumpTable
}

// retiredTables are the tables Load still reads from older archives.
var retiredTables = map[string]retiredTable{
	// Migration 0036 moved the place in line into the sign-up's row.
	"waitlist_line": {
		create: `CREATE TEMPORARY TABLE waitlist_line (signup_id TEXT, program TEXT, code TEXT, seq INTEGER, credits INTEGER,
			line_key INTEGER, ip_hash TEXT, created_at TIMESTAMP)`,
		apply: `UPDATE waitlist_signups SET line_code = l.code, line_seq = l.seq, line_credits = l.credits, line_key = l.line_key,
			ip_hash = l.ip_hash FROM waitlist_line l WHERE l.signup_id = CAST(waitlist_signups.id AS TEXT)`,
		columns: DumpTable{Name: "waitlist_line",
			Columns: []string{"signup_id", "program", "code", "seq", "credits", "line_key", "ip_hash", "created_at"},
			Kinds:   []ColumnKind{KindText, KindText, KindText, KindInteger, KindInteger, KindInteger, KindText, KindTime}},
	},
	// Migration 0045 replaced the line's counters by its numbers, which
	// Load counts again from the places whatever the archive holds.
	"waitlist_line_counts": {
		create: `CREATE TEMPORARY TABLE waitlist_line_counts (program TEXT, lane INTEGER, n INTEGER, last_seq INTEGER)`,
		columns: DumpTable{Name: "waitlist_line_counts", Columns: []string{"program", "lane", "n", "last_seq"},
			Kinds: []ColumnKind{KindText, KindInteger, KindInteger, KindInteger}},
	},
}

// Load writes a dump into this newly migrated database in one transaction:
// for each table of the dump it removes the rows the migrations seeded and
// inserts the dump's, then counts every table and compares with want (the
// dump's row counts). A table of an older archive the schema moved
// elsewhere (retiredTables) is read into its new place. NUL bytes are
// taken out of text, and the rows counted (Loaded.Cleaned). Any difference,
// a table or column the schema lacks, or a row that cannot be written (a
// *RowError naming it) undoes everything. It returns the row count of each
// table loaded.
func (db *DB) Load(ctx context.Context, r DumpReader, want map[string]int64) (Loaded, error) {
	got, cleaned, err := db.load(ctx, r, want)
	return Loaded{Rows: got, Cleaned: cleaned}, err
}

func (db *DB) load(ctx context.Context, r DumpReader, want map[string]int64) (map[string]int64, map[string]int64, error) {
	tx, err := db.sql.BeginTx(ctx, nil)
	if err != nil {
		return nil, nil, err
	}
	defer tx.Rollback()
	if db.dialect == SQLite {
		if _, err := tx.ExecContext(ctx, `PRAGMA defer_foreign_keys = ON`); err != nil {
			return nil, nil, err
		}
	}
	// The places in line are loaded without their unique index: an archive
	// made before migration 0045 on PostgreSQL may hold places of a program
	// with the same number, numbered apart below before the index is made
	// again.
	if _, err := tx.ExecContext(ctx, `DROP INDEX waitlist_signups_line`); err != nil {
		return nil, nil, err
	}
	schema, err := db.dumpTables(ctx, tx)
	if err != nil {
		return nil, nil, err
	}
	byName := map[string]DumpTable{}
	for _, t := range schema {
		byName[t.Name] = t
	}
	got, cleaned := map[string]int64{}, map[string]int64{}
	var retired []retiredTable
	for {
		name, cols, err := r.NextTable()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, nil, err
		}
		t, ok := byName[name]
		if old, isOld := retiredTables[name]; !ok && isOld {
			if _, err := tx.ExecContext(ctx, old.create); err != nil {
				return nil, nil, fmt.Errorf("load %s: %w", name, err)
			}
			t, ok = old.columns, true
			retired = append(retired, old)
		}
		if !ok {
			return nil, nil, fmt.Errorf("load: table %s is not in this database's schema (an archive of a newer version?)", name)
		}
		kinds := make([]ColumnKind, len(cols))
		for i, c := range cols {
			j := indexOf(t.Columns, c)
			if j < 0 {
				return nil, nil, fmt.Errorf("load: column %s.%s is not in this database's schema (an archive of a newer version?)", name, c)
			}
			kinds[i] = t.Kinds[j]
		}
		if _, err := tx.ExecContext(ctx, "DELETE FROM "+quoteIdent(name)); err != nil {
			return nil, nil, fmt.Errorf("load %s: %w", name, err)
		}
		n, c, err := db.loadRows(ctx, tx, name, cols, kinds, r)
		if err != nil {
			return nil, nil, fmt.Errorf("load %s: %w", name, err)
		}
		got[name] = n
		if c > 0 {
			cleaned[name] = c
		}
	}
	for _, old := range retired {
		name := old.columns.Name
		if old.apply != "" {
			if _, err := tx.ExecContext(ctx, old.apply); err != nil {
				return nil, nil, fmt.Errorf("load %s: %w", name, err)
			}
		}
		if got[name] != want[name] {
			return nil, nil, fmt.Errorf("load: table %s has %d rows, the archive says %d: nothing restored", name, got[name], want[name])
		}
		if _, err := tx.ExecContext(ctx, "DROP TABLE "+quoteIdent(name)); err != nil {
			return nil, nil, fmt.Errorf("load %s: %w", name, err)
		}
	}
	for name, w := range want {
		if _, ok := retiredTables[name]; ok && got[name] == w {
			continue // moved above
		}
		if _, ok := byName[name]; !ok {
			return nil, nil, fmt.Errorf("load: table %s is not in this database's schema", name)
		}
		var n int64
		if err := tx.QueryRowContext(ctx, "SELECT COUNT(*) FROM "+quoteIdent(name)).Scan(&n); err != nil {
			return nil, nil, err
		}
		if n != w {
			return nil, nil, fmt.Errorf("load: table %s has %d rows, the archive says %d: nothing restored", name, n, w)
		}
		got[name] = n
	}
	for _, q := range []string{renumberLine, lineIndex} {
		if _, err := tx.ExecContext(ctx, q); err != nil {
			return nil, nil, fmt.Errorf("load: the places in line: %w", err)
		}
	}
	if err := db.recountLine(ctx, tx); err != nil {
		return nil, nil, fmt.Errorf("load: the places in line: %w", err)
	}
	// An archive made before migration 0043 holds sent e-mails in the
	// outbox: they move to sent_emails as the migration moved them.
	for _, q := range []string{`INSERT INTO sent_emails (` + sentColumns + `)
		SELECT created_at, COALESCE(sent_at, created_at), to_address, subject, kind, sent_via, body, list_unsubscribe
		FROM outbox_emails WHERE status = 'sent' ORDER BY created_at, id`, `DELETE FROM outbox_emails WHERE status = 'sent'`} {
		if _, err := tx.ExecContext(ctx, q); err != nil {
			return nil, nil, fmt.Errorf("load: sent e-mails: %w", err)
		}
	}
	if err := tx.Commit(); err != nil {
		return nil, nil, fmt.Errorf("load: commit: %w", err)
	}
	return got, cleaned, nil
}

// loadRows inserts the table's rows from r, several to a statement, and
// returns how many, and how many had NUL bytes taken out of their text. A
// statement that fails is undone (a savepoint) and its rows are written one
// at a time to name the one that cannot be (a *RowError).
func (db *DB) loadRows(ctx context.Context, tx *sql.Tx, table string, cols []string, kinds []ColumnKind, r DumpReader) (n, cleaned int64, err error) {
	per := min(200, max(1, 30000/len(cols)))
	head := "INSERT INTO " + quoteIdent(table) + " (" + quoteList(cols) + ") VALUES "
	one := "(" + strings.TrimSuffix(strings.Repeat("?,", len(cols)), ",") + ")"
	idCol := indexOf(cols, "id")
	rowErr := func(row int64, values []any, err error) error {
		e := &RowError{Table: table, Row: row, Err: err}
		if idCol >= 0 && idCol < len(values) && values[idCol] != nil {
			e.ID = fmt.Sprint(values[idCol])
		}
		return e
	}
	insert := func(args []any) error {
		q := head + strings.TrimSuffix(strings.Repeat(one+",", len(args)/len(cols)), ",")
		if _, err := tx.ExecContext(ctx, "SAVEPOINT load_rows"); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, db.rebind(q), args...); err != nil {
			if _, rerr := tx.ExecContext(ctx, "ROLLBACK TO SAVEPOINT load_rows"); rerr != nil {
				return errors.Join(err, rerr)
			}
			return err
		}
		_, err := tx.ExecContext(ctx, "RELEASE SAVEPOINT load_rows")
		return err
	}
	args := make([]any, 0, per*len(cols))
	flush := func() error {
		if len(args) == 0 {
			return nil
		}
		if err := insert(args); err != nil {
			for i := 0; i < len(args); i += len(cols) {
				if rerr := insert(args[i : i+len(cols)]); rerr != nil {
					return rowErr(n+int64(i/len(cols))+1, args[i:i+len(cols)], rerr)
				}
			}
			return err
		}
		n += int64(len(args) / len(cols))
		args = args[:0]
		return nil
	}
	for {
		row, err := r.NextRow()
		if errors.Is(err, io.EOF) {
			break
		}
		at := n + int64(len(args)/len(cols)) + 1
		if err != nil {
			return n, cleaned, fmt.Errorf("row %d: %w", at, err)
		}
		if len(row) != len(cols) {
			return n, cleaned, rowErr(at, row, fmt.Errorf("%d values for %d columns", len(row), len(cols)))
		}
		nul := false
		for i, v := range row {
			if name, ok := v.(string); ok && table == "waitlist_signups" && cols[i] == "program" {
				// An archive made before migration 0042 holds the program's name.
				if !IsProgram(name) {
					return n, cleaned, rowErr(at, row, fmt.Errorf("column program: %q is not a waitlist program", name))
				}
				v = json.Number(strconv.FormatInt(codeOf(name), 10))
			}
			if s, ok := v.(string); ok && kinds[i] == KindText && strings.IndexByte(s, 0) >= 0 {
				v, nul = strings.ReplaceAll(s, "\x00", ""), true
			}
			x, err := fromDump(kinds[i], v)
			if err != nil {
				return n, cleaned, rowErr(at, row, fmt.Errorf("column %s: %w", cols[i], err))
			}
			args = append(args, x)
		}
		if nul {
			cleaned++
		}
		if len(args) >= per*len(cols) {
			if err := flush(); err != nil {
				return n, cleaned, err
			}
		}
	}
	return n, cleaned, flush()
}

// fromDump turns a JSON-decoded dump value into what this engine's driver
// writes for a column of kind k.
func fromDump(k ColumnKind, v any) (any, error) {
	if v == nil {
		return nil, nil
	}
	switch k {
	case KindBool:
		if b, ok := v.(bool); ok {
			return b, nil
		}
	case KindInteger:
		if x, ok := v.(json.Number); ok {
			return x.Int64()
		}
	case KindReal:
		if x, ok := v.(json.Number); ok {
			return x.Float64()
		}
	case KindTime:
		if s, ok := v.(string); ok {
			t, err := time.Parse(time.RFC3339Nano, s)
			return t.UTC(), err
		}
	case KindBlob:
		if s, ok := v.(string); ok {
			return base64.StdEncoding.DecodeString(s)
		}
	default:
		switch x := v.(type) {
		case string:
			return x, nil
		case json.Number:
			return x.String(), nil
		}
	}
	return nil, fmt.Errorf("unexpected %T for a %s column", v, k)
}

func indexOf(list []string, s string) int {
	for i, x := range list {
		if x == s {
			return i
		}
	}
	return -1
}

func quoteIdent(s string) string { return `"` + strings.ReplaceAll(s, `"`, `""`) + `"` }

func quoteList(cols []string) string {
	q := make([]string, len(cols))
	for i, c := range cols {
		q[i] = quoteIdent(c)
	}
	return strings.Join(q, ", ")
}
