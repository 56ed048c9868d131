package console

import (
	"context"
	"database/sql"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"time"

	"salaula/internal/store"
)

// Page limits.
const (
	DefaultLimit = 50
	MaxLimit     = 200
)

// Page is one page of a list: the items, the cursor of the next page (nil on
// the last page) and how many records match the filters in all.
type Page[T any] struct {
	Items      []T     `json:"items"`
	NextCursor *string `json:"nextCursor"`
	Total      int     `json:"total"`
}

// Paging is what every list takes besides its filters.
type Paging struct {
	Sort   string // "-created_at" (newest first, the default), "created_at", "email", "-email"
	Limit  int
	Cursor string
}

// query is one list's SQL: the FROM clause, the WHERE conditions with their
// arguments, and the columns a row is read from.
type query struct {
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

// tie is the column that breaks ties of the sort by name.
func (q *query) tie(name string) string {
	if name == "email" && q.emailTie != "" {
		return q.emailTie
	}
	return q.id
}

func (q *query) add(cond string, args ...any) {
	q.where = append(q.where, cond)
	q.args = append(q.args, args...)
}

func (q *query) whereSQL(extra string) string {
	conds := q.where
	if extra != "" {
		conds = append(append([]string{}, conds...), extra)
	}
	if len(conds) == 0 {
		return ""
	}
	return " WHERE " + strings.Join(conds, " AND ")
}

// sortKey splits a sort value into its key column and whether it descends.
func (q *query) sortKey(sort string) (name, col string, desc bool, err error) {
	if sort == "" {
		sort = "-created_at"
	}
	name = strings.TrimPrefix(sort, "-")
	col, ok := q.keys[name]
	if !ok {
		names := make([]string, 0, len(q.keys)*2)
		for _, k := range []string{"created_at", "email"} {
			if _, ok := q.keys[k]; ok {
				names = append(names, k, "-"+k)
			}
		}
		return "", "", false, badInput(fmt.Sprintf("Unknown sort %q: use one of %s", sort, strings.Join(names, ", ")))
	}
	return name, col, strings.HasPrefix(sort, "-"), nil
}

// orderSQL is the ORDER BY of the sort by name (column col).
func (q *query) orderSQL(name, col string, desc bool) string {
	dir := ""
	if desc {
		dir = " DESC"
	}
	return " ORDER BY " + col + dir + ", " + q.tie(name) + dir
}

// cursor is what a nextCursor encodes: the sort it belongs to and the last
// row's key and tie-breaker (its id, or see query.emailTie).
type cursor struct {
	Sort string `json:"s"`
	Key  string `json:"k"`
	ID   string `json:"i"`
}

func encodeCursor(c cursor) string {
	b, _ := json.Marshal(c)
	return base64.RawURLEncoding.EncodeToString(b)
}

const msgBadCursor = "The cursor is not valid: start again from the first page (no cursor)"

func decodeCursor(s, sort, keyName string) (key any, id string, err error) {
	raw, err := base64.RawURLEncoding.DecodeString(s)
	var c cursor
	if err != nil || json.Unmarshal(raw, &c) != nil || c.ID == "" {
		return nil, "", badInput(msgBadCursor)
	}
	if c.Sort != sort {
		return nil, "", badInput("The cursor belongs to another sort order: start again from the first page")
	}
	if keyName == "created_at" {
		t, err := time.Parse(time.RFC3339Nano, c.Key)
		if err != nil {
			return nil, "", badInput(msgBadCursor)
		}
		return t.UTC(), c.ID, nil
	}
	return c.Key, c.ID, nil
}

// page is the SQL (with its arguments) of one page of q: the rows after
// p.Cursor in the order of p.Sort, one more than p.Limit to tell whether
// another page follows.
func (q *query) page(p Paging) (sort, keyName, sqlText string, args []any, err error) {
	sort = p.Sort
	if sort == "" {
		sort = "-created_at"
	}
	name, col, desc, err := q.sortKey(sort)
	if err != nil {
		return "", "", "", nil, err
	}
	after, args := "", append([]any{}, q.args...)
	if p.Cursor != "" {
		k, id, err := decodeCursor(p.Cursor, sort, name)
		if err != nil {
			return "", "", "", nil, err
		}
		op := ">"
		if desc {
			op = "<"
		}
		after = "(" + col + ", " + q.tie(name) + ") " + op + " (?, ?)"
		args = append(args, k, id)
	}
	return sort, name, `SELECT ` + q.columns + ` FROM ` + q.from + q.whereSQL(after) + q.orderSQL(name, col, desc) +
		` LIMIT ` + strconv.Itoa(p.Limit+1), args, nil
}

// keyOf is what a row contributes to the next cursor: its sort keys, the
// tie-breaker of the e-mail sort (query.emailTie's value, else its id) and
// its id.
type keyOf[T any] func(T) (createdAt time.Time, email, emailTie, id string)

// list answers one page of q, reading each row with scan.
func list[T any](ctx context.Context, db *store.DB, q query, p Paging, scan func(*sql.Rows) (T, error), key keyOf[T]) (*Page[T], error) {
	if p.Limit == 0 {
		p.Limit = DefaultLimit
	}
	if p.Limit < 1 || p.Limit > MaxLimit {
		return nil, badInput(fmt.Sprintf("limit must be a whole number from 1 to %d", MaxLimit))
	}
	sort, name, pageSQL, args, err := q.page(p)
	if err != nil {
		return nil, err
	}
	var total int
	if err := db.QueryRow(ctx, `SELECT COUNT(*) FROM `+q.from+q.whereSQL(""), q.args...).Scan(&total); err != nil {
		return nil, err
	}
	rows, err := db.Query(ctx, pageSQL, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	page := &Page[T]{Items: []T{}, Total: total}
	for rows.Next() {
		item, err := scan(rows)
		if err != nil {
			return nil, err
		}
		page.Items = append(page.Items, item)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	if len(page.Items) > p.Limit {
		page.Items = page.Items[:p.Limit]
		created, email, emailTie, id := key(page.Items[p.Limit-1])
		k := created.UTC().Format(time.RFC3339Nano)
		if name == "email" {
			k, id = email, emailTie
		}
		next := encodeCursor(cursor{Sort: sort, Key: k, ID: id})
		page.NextCursor = &next
	}
	return page, nil
}

// each calls fn for every row of q in the order of sort ("created_at",
// oldest first, when empty), streaming: one row in memory at a time.
func each[T any](ctx context.Context, db *store.DB, q query, sort string, scan func(*sql.Rows) (T, error), fn func(T) error) error {
	if sort == "" {
		sort = "created_at"
	}
	name, col, desc, err := q.sortKey(sort)
	if err != nil {
		return err
	}
	rows, err := db.Query(ctx, `SELECT `+q.columns+` FROM `+q.from+q.whereSQL("")+q.orderSQL(name, col, desc), q.args...)
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

// likePattern makes a case-insensitive "contains" pattern for LIKE ... ESCAPE '\'.
func likePattern(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`)
	return "%" + r.Replace(strings.ToLower(strings.TrimSpace(s))) + "%"
}

// searchAny adds "any of cols contains q" (case-insensitive) to query.
func (q *query) searchAny(text string, cols ...string) {
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

// Params reads the list parameters of a request's query string: the
// filters named in filters (their values into the returned map) and sort,
// limit, cursor. Any other parameter, or one given twice, is BadInput.
func Params(v url.Values, filters ...string) (map[string]string, Paging, error) {
	out := map[string]string{}
	var p Paging
	allowed := map[string]bool{"sort": true, "limit": true, "cursor": true}
	for _, f := range filters {
		allowed[f] = true
	}
	for name, vals := range v {
		if !allowed[name] {
			known := append(append([]string{}, filters...), "sort", "limit", "cursor")
			return nil, p, badInput(fmt.Sprintf("Unknown parameter %q: use %s", name, strings.Join(known, ", ")))
		}
		if len(vals) > 1 {
			return nil, p, badInput(fmt.Sprintf("Parameter %q is given more than once", name))
		}
		val := vals[0]
		switch name {
		case "sort":
			p.Sort = val
		case "cursor":
			p.Cursor = val
		case "limit":
			n, err := strconv.Atoi(val)
			if err != nil || n < 1 || n > MaxLimit {
				return nil, p, badInput(fmt.Sprintf("limit must be a whole number from 1 to %d", MaxLimit))
			}
			p.Limit = n
		default:
			out[name] = val
		}
	}
	return out, p, nil
}

// oneOf returns the canonical value of v among allowed (any letter case,
// surrounding spaces ignored), "" for an empty v, or BadInput naming them.
func oneOf(name, v string, allowed ...string) (string, error) {
	v = strings.TrimSpace(v)
	if v == "" {
		return "", nil
	}
	for _, a := range allowed {
		if strings.EqualFold(v, a) {
			return a, nil
		}
	}
	quoted := make([]string, len(allowed))
	for i, a := range allowed {
		quoted[i] = strconv.Quote(a)
	}
	return "", badInput(fmt.Sprintf("Unknown %s %q: use one of %s", name, v, strings.Join(quoted, ", ")))
}

func nullTime(t sql.NullTime) *time.Time {
	if !t.Valid {
		return nil
	}
	u := t.Time.UTC()
	return &u
}
