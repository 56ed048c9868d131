package store

import (
	"context"
	"database/sql"
	"fmt"
	"strconv"
	"strings"
	"time"
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
	// emailTie, when set, breaks ties of the e-mail sort instead of id: a
	// column unique together with the e-mail, so that the sort reads the
	// unique index on both and needs no index of its own.
	emailTie string
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

// likePattern makes a case-insensitive "contains" pattern for LIKE ... ESCAPE '\'.
func likePattern(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`)
	return "%" + r.Replace(strings.ToLower(strings.TrimSpace(s))) + "%"
}

// searchAny adds "any of cols contains text" (case-insensitive).
func (q *listQuery) searchAny(text string, cols ...string) {
	text = strings.TrimSpace(text)
	if text == "" {
		return
	}
	parts := make([]string, len(cols))
	pat := likePattern(text)
	for i, c := range cols {
		parts[i] = "LOWER(" + c + `) LIKE ? ESCAPE '\'`
		q.args = append(q.args, pat)
	}
	q.where = append(q.where, "("+strings.Join(parts, " OR ")+")")
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
	if o.After != nil {
		after = "(" + col + ", " + q.tie(o.Key) + ") " + op + " (?, ?)"
		args = append(args, o.After.Key, o.After.Tie)
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
