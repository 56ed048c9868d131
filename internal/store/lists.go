package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode"
)

// ListOrder is how one of the console's lists is read: sorted by Key
// ("created_at" or "email"), descending when Desc, starting after the row
// After points at (nil: from the first row), at most Limit rows (0: every
// row). The console checks the sort and decodes its cursors; the store
// only reads.
type ListOrder struct {
	Key   string
	Desc  bool
	After *ListAfter
	Limit int
}

// ErrBadCursor is the error of a list read after a position whose
// tie-breaker cannot be a row's id.
var ErrBadCursor = errors.New("store: the cursor names no row of this list")

// ListAfter is the position a cursor stands for: the last row's sort key
// (a time.Time for created_at, a string for email) and its tie-breaker
// (see the list's Tie* function).
type ListAfter struct {
	Key any
	Tie string
}

// listQuery is one list's SQL: the FROM clause, the WHERE conditions with
// their arguments, and the columns a row is read from.
type listQuery struct {
	columns string
	from    string
	where   []string
	args    []any
	// keys maps a sort name ("created_at", "email") to its column.
	keys map[string]string
	id   string // the unique tie-breaker column
	// uuidID says the id column holds ids of IsID's form (uuid on
	// PostgreSQL): a cursor's tie of another form is ErrBadCursor.
	uuidID bool
	// emailTie, when set, breaks ties of the e-mail sort instead of id: a
	// column unique together with the e-mail, so that the sort reads the
	// unique index on both and needs no index of its own.
	emailTie string
	// tieArg, when set, turns the e-mail sort's tie as a cursor holds it
	// into the value its column holds (a program's name into its code).
	tieArg func(tie string) any
}

func (q *listQuery) tie(key string) string {
	if key == "email" && q.emailTie != "" {
		return q.emailTie
	}
	return q.id
}

func (q *listQuery) add(cond string, args ...any) {
	q.where = append(q.where, cond)
	q.args = append(q.args, args...)
}

func (q *listQuery) whereSQL(extra string) string {
	conds := q.where
	if extra != "" {
		conds = append(append([]string{}, conds...), extra)
	}
	if len(conds) == 0 {
		return ""
	}
	return " WHERE " + strings.Join(conds, " AND ")
}

// A list's search finds the rows where one of a few texts starts with what
// is typed, any letter case: an address, its domain (after the '@'), a
// name or its last word. Each text is an expression of a column with an
// index of its own (migrations 0025 and 0033: byte-ordered on
// PostgreSQL), so that the rows starting with a text are one range of it,
// however many rows there are. The text is lower-cased in Go and the
// names by the engine's lower(), which on SQLite folds only A to Z.

// searchKind is what a searched column holds, and so the expression the
// search compares.
type searchKind int

const (
	searchAddress  searchKind = iota // an e-mail address (stored lower-cased)
	searchDomain                     // the address's domain, after its '@'
	searchName                       // a name, lower-cased
	searchLastWord                   // a name's last word, after its last space, lower-cased
)

// searchColumn is a column a search compares as kind.
type searchColumn struct {
	name string
	kind searchKind
}

// searchTable is a table a list's search reads: its name, its alias in the
// list's FROM clause ("" for none), its column naming the list's row, and
// the columns whose start the search compares. A table holds at most one
// row for each row of the list.
type searchTable struct {
	name, alias, key string
	columns          []searchColumn
}

// col is column c of t as the list's query names it.
func (t searchTable) col(c string) string {
	if t.alias == "" {
		return c
	}
	return t.alias + "." + c
}

// match is the condition "one of t's columns starts with text" on engine
// d, each a range of its index; noIndex writes it so that SQLite uses no
// index for it.
func (t searchTable) match(text string, d Dialect, noIndex bool) (string, []any) {
	parts := make([]string, len(t.columns))
	var args []any
	for i, c := range t.columns {
		expr := searchExpr(t.col(c.name), c.kind, d, noIndex)
		if end := prefixEnd(text); end != "" {
			parts[i] = "(" + expr + " >= ? AND " + expr + " < ?)"
			args = append(args, text, end)
		} else {
			parts[i] = expr + " >= ?"
			args = append(args, text)
		}
	}
	return "(" + strings.Join(parts, " OR ") + ")", args
}

// searchExpr is the expression a search compares for column col holding
// kind, written as the migrations index it on engine d; noIndex sets the
// index aside on SQLite (a unary + on the column).
func searchExpr(col string, kind searchKind, d Dialect, noIndex bool) string {
	if d == SQLite && noIndex {
		col = "+" + col
	}
	var e string
	switch kind {
	case searchAddress:
		e = col
	case searchDomain:
		e = "split_part(" + col + ", '@', 2)"
		if d == SQLite {
			e = "substr(" + col + ", instr(" + col + ", '@') + 1)"
		}
	case searchName:
		e = "lower(" + col + ")"
	case searchLastWord: // what rtrim leaves of the name without its last word, replaced by nothing
		e = "lower(replace(" + col + ", rtrim(" + col + ", replace(" + col + ", ' ', '')), ''))"
	}
	if d == Postgres {
		e += ` COLLATE "C"`
	}
	return e
}

// prefixEnd is the least string greater than every string starting with
// prefix, in code point order, "" when there is none.
func prefixEnd(prefix string) string {
	r := []rune(prefix)
	for i := len(r) - 1; i >= 0; i-- {
		switch {
		case r[i] == 0xD7FF:
			r[i] = 0xE000 // past the surrogates, which are no characters
		case r[i] < unicode.MaxRune:
			r[i]++
		default:
			continue
		}
		return string(r[:i+1])
	}
	return ""
}

// sparseMatches is how many rows a search may match for the list to read
// just those through the search's indexes (see search).
const sparseMatches = 1000

// search adds to q the search of text (trimmed, any letter case) over the
// tables s; an empty text adds nothing, and a text starting with '@'
// searches the domains alone for the rest ("@" alone: no search). It counts the matches in the
// search's index ranges first, up to sparseMatches for each table (a row
// found in two tables counts twice). When they are few the list reads
// just them and sorts them: through the ranges themselves when the search
// reads one table, else as q.id IN the union of each table's matches (an
// OR over two tables of a join can use no index). When they are many
// (then more than sparseMatches rows match), the list reads its rows in
// its own order and keeps the matching ones, which soon fills a page (on
// SQLite the search's indexes are then set aside with a unary +;
// PostgreSQL's planner chooses by itself). many reports the second case.
func (db *DB) search(ctx context.Context, q *listQuery, s []searchTable, text string) (many bool, err error) {
	text = strings.ToLower(strings.TrimSpace(text))
	if domain, ok := strings.CutPrefix(text, "@"); ok { // "@gmail": the domain alone
		text, s = domain, domainsOnly(s)
	}
	if text == "" {
		return false, nil
	}
	matches, entries := make([]string, len(s)), make([]string, len(s))
	var args []any
	for i, t := range s {
		cond, a := t.match(text, db.dialect, false)
		from := " FROM " + strings.TrimSpace(t.name+" "+t.alias) + " WHERE " + cond
		matches[i], entries[i] = "SELECT "+t.col(t.key)+from, "SELECT 1"+from
		args = append(args, a...)
	}
	most := sparseMatches * len(s)
	var n int
	if err := db.QueryRow(ctx, `SELECT COUNT(*) FROM (`+strings.Join(entries, " UNION ALL ")+` LIMIT `+strconv.Itoa(most+1)+`) AS m`,
		args...).Scan(&n); err != nil {
		return false, err
	}
	many = n > most
	if !many && len(s) > 1 {
		q.add(q.id+" IN ("+strings.Join(matches, " UNION ")+")", args...)
		return false, nil
	}
	conds := make([]string, len(s))
	args = nil
	for i, t := range s {
		cond, a := t.match(text, db.dialect, many)
		conds[i] = cond
		args = append(args, a...)
	}
	q.add("("+strings.Join(conds, " OR ")+")", args...)
	return many, nil
}

// domainsOnly is s with only its address domains searched.
func domainsOnly(s []searchTable) []searchTable {
	var out []searchTable
	for _, t := range s {
		var cols []searchColumn
		for _, c := range t.columns {
			if c.kind == searchDomain {
				cols = append(cols, c)
			}
		}
		if len(cols) > 0 {
			t.columns = cols
			out = append(out, t)
		}
	}
	return out
}

// countSearched is how many rows match q, whose search found many when
// many: then, with no other filter, more than sparseMatches without
// counting them, else counted up to CountCap.
func (q *listQuery) countSearched(ctx context.Context, db *DB, many bool) (Total, error) {
	if many && len(q.where) == 1 {
		return Total{N: sparseMatches, AtLeast: true}, nil
	}
	return q.count(ctx, db)
}

// Total is how many rows a list's filters match: N exactly, or, when
// AtLeast, N or more (an exact count would read every matching row).
type Total struct {
	N       int
	AtLeast bool
}

// CountCap is where a list's count stops: it reads at most this many rows
// (one more to tell), so that a list of a million answers at once.
const CountCap = 10_000

// count is how many rows match q's conditions, up to CountCap.
func (q *listQuery) count(ctx context.Context, db *DB) (Total, error) {
	var n int
	err := db.QueryRow(ctx, `SELECT COUNT(*) FROM (SELECT 1 FROM `+q.from+q.whereSQL("")+` LIMIT `+strconv.Itoa(CountCap+1)+`) AS m`,
		q.args...).Scan(&n)
	if n > CountCap {
		return Total{N: CountCap, AtLeast: true}, err
	}
	return Total{N: n}, err
}

// sql is the query of q's rows in the order o.
func (q *listQuery) sql(o ListOrder) (string, []any, error) {
	col, ok := q.keys[o.Key]
	if !ok {
		return "", nil, fmt.Errorf("store: the list cannot be sorted by %q", o.Key)
	}
	dir, op := "", ">"
	if o.Desc {
		dir, op = " DESC", "<"
	}
	after, args := "", append([]any{}, q.args...)
	if o.After != nil && q.uuidID && q.tie(o.Key) == q.id && !IsID(o.After.Tie) {
		return "", nil, ErrBadCursor
	}
	if o.After != nil {
		after = "(" + col + ", " + q.tie(o.Key) + ") " + op + " (?, ?)"
		var tie any = o.After.Tie
		if q.tieArg != nil && q.tie(o.Key) == q.emailTie {
			tie = q.tieArg(o.After.Tie)
		}
		args = append(args, o.After.Key, tie)
	}
	text := `SELECT ` + q.columns + ` FROM ` + q.from + q.whereSQL(after) + ` ORDER BY ` + col + dir + ", " + q.tie(o.Key) + dir
	if o.Limit > 0 {
		text += ` LIMIT ` + strconv.Itoa(o.Limit)
	}
	return text, args, nil
}

// each reads the rows of q in the order o, calling fn with each (one row in
// memory at a time).
func each[T any](ctx context.Context, db *DB, q listQuery, o ListOrder, scan func(*sql.Rows) (T, error), fn func(T) error) error {
	text, args, err := q.sql(o)
	if err != nil {
		return err
	}
	rows, err := db.Query(ctx, text, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		item, err := scan(rows)
		if err != nil {
			return err
		}
		if err := fn(item); err != nil {
			return err
		}
	}
	return rows.Err()
}

// nullTimeUTC is t as a *time.Time in UTC, nil for NULL.
func nullTimeUTC(t sql.NullTime) *time.Time {
	if !t.Valid {
		return nil
	}
	u := t.Time.UTC()
	return &u
}
