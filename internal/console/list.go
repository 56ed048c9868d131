package console

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"salaula/internal/apierr"
	"salaula/internal/store"
	"salaula/internal/validate"
)

// Page limits.
const (
	DefaultLimit = 50
	MaxLimit     = 200
)

// Page is one page of a list: the items, the cursor of the next page (nil on
// the last page) and how many records match the filters in all: exactly,
// or, when TotalAtLeast, that many or more (the count stops at
// store.CountCap rather than read every matching record).
type Page[T any] struct {
	Items        []T     `json:"items"`
	NextCursor   *string `json:"nextCursor"`
	Total        int     `json:"total"`
	TotalAtLeast bool    `json:"totalAtLeast,omitempty"`
}

// Paging is what every list takes besides its filters.
type Paging struct {
	Sort   string // "-created_at" (newest first, the default), "created_at", "email", "-email"
	Limit  int
	Cursor string
}

// sortKeys are the sorts every list but the audit log offers.
var sortKeys = []string{"created_at", "email"}

// order checks a sort value among keys ("-" before a key: descending) and
// returns it as the store's order, with its canonical spelling.
func order(sort string, keys []string) (string, store.ListOrder, error) {
	if sort == "" {
		sort = "-created_at"
	}
	key := strings.TrimPrefix(sort, "-")
	if !slices.Contains(keys, key) {
		names := make([]string, 0, len(keys)*2)
		for _, k := range keys {
			names = append(names, k, "-"+k)
		}
		return "", store.ListOrder{}, apierr.New(apierr.Invalid, fmt.Sprintf("Unknown sort %q: use one of %s", sort, strings.Join(names, ", ")))
	}
	return sort, store.ListOrder{Key: key, Desc: strings.HasPrefix(sort, "-")}, nil
}

// cursor is what a nextCursor encodes: the sort it belongs to and the last
// row's key and tie-breaker (its id, or see store.WaitlistTie).
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
		return nil, "", apierr.New(apierr.Invalid, msgBadCursor)
	}
	if c.Sort != sort {
		return nil, "", apierr.New(apierr.Invalid, "The cursor belongs to another sort order: start again from the first page")
	}
	if keyName == "created_at" {
		t, err := time.Parse(time.RFC3339Nano, c.Key)
		if err != nil {
			return nil, "", apierr.New(apierr.Invalid, msgBadCursor)
		}
		return t.UTC(), c.ID, nil
	}
	return c.Key, c.ID, nil
}

// tieOf is a row's tie-breaker in the order of a sort key (see
// store.WaitlistTie).
type tieOf[T any] func(item T, key string) string

// rowTime is a row's created_at, its key in the created_at order.
type rowTime[T any] func(T) time.Time

// rowEmail is a row's e-mail, its key in the email order.
type rowEmail[T any] func(T) string

// lister reads one list through the store, in a store.ListOrder, calling fn
// with each row.
type lister[T any] func(ctx context.Context, o store.ListOrder, fn func(T) error) error

// list answers one page of a list: the rows after p.Cursor in the order of
// p.Sort (one more is read to tell whether another page follows), and
// count's total.
func list[T any](ctx context.Context, read lister[T], count func(context.Context) (store.Total, error), keys []string, p Paging,
	created rowTime[T], email rowEmail[T], tie tieOf[T]) (*Page[T], error) {
	if p.Limit == 0 {
		p.Limit = DefaultLimit
	}
	if p.Limit < 1 || p.Limit > MaxLimit {
		return nil, apierr.New(apierr.Invalid, fmt.Sprintf("limit must be a whole number from 1 to %d", MaxLimit))
	}
	sort, o, err := order(p.Sort, keys)
	if err != nil {
		return nil, err
	}
	if p.Cursor != "" {
		k, id, err := decodeCursor(p.Cursor, sort, o.Key)
		if err != nil {
			return nil, err
		}
		o.After = &store.ListAfter{Key: k, Tie: id}
	}
	total, err := count(ctx)
	if err != nil {
		return nil, err
	}
	o.Limit = p.Limit + 1
	page := &Page[T]{Items: []T{}, Total: total.N, TotalAtLeast: total.AtLeast}
	if err := read(ctx, o, func(item T) error {
		page.Items = append(page.Items, item)
		return nil
	}); errors.Is(err, store.ErrBadCursor) {
		return nil, apierr.New(apierr.Invalid, msgBadCursor)
	} else if err != nil {
		return nil, err
	}
	if len(page.Items) > p.Limit {
		page.Items = page.Items[:p.Limit]
		last := page.Items[p.Limit-1]
		k := created(last).UTC().Format(time.RFC3339Nano)
		if o.Key == "email" {
			k = email(last)
		}
		next := encodeCursor(cursor{Sort: sort, Key: k, ID: tie(last, o.Key)})
		page.NextCursor = &next
	}
	return page, nil
}

// each calls fn for every row of a list in the order of sort ("created_at",
// oldest first, when empty), streaming: one row in memory at a time.
func each[T any](ctx context.Context, read lister[T], keys []string, sort string, fn func(T) error) error {
	if sort == "" {
		sort = "created_at"
	}
	_, o, err := order(sort, keys)
	if err != nil {
		return err
	}
	return read(ctx, o, fn)
}

// Params reads the list parameters of a request's query string: the
// filters named in filters (their values into the returned map) and sort,
// limit, cursor. Any other parameter, or one given twice, is an Invalid error.
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
			return nil, p, apierr.New(apierr.Invalid, fmt.Sprintf("Unknown parameter %q: use %s", name, strings.Join(known, ", ")))
		}
		if len(vals) > 1 {
			return nil, p, apierr.New(apierr.Invalid, fmt.Sprintf("Parameter %q is given more than once", name))
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
				return nil, p, apierr.New(apierr.Invalid, fmt.Sprintf("limit must be a whole number from 1 to %d", MaxLimit))
			}
			p.Limit = n
		default:
			out[name] = val
		}
	}
	return out, p, nil
}

// oneOf returns the canonical value of v among allowed (any letter case,
// surrounding spaces ignored), "" for an empty v, or an Invalid error naming them.
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
	return "", apierr.New(apierr.Invalid, fmt.Sprintf("Unknown %s %q: use one of %s", name, v, strings.Join(quoted, ", ")))
}

// MaxSearchLength is the most characters a list's search takes: the
// longest e-mail address.
const MaxSearchLength = validate.MaxEmailLength

// searchText checks the search of a list (its q parameter) and returns it
// without surrounding spaces ("": no search): printable text of at most
// MaxSearchLength characters, else an Invalid error.
func searchText(q string) (string, error) {
	q = strings.TrimSpace(q)
	switch {
	case !utf8.ValidString(q) || strings.ContainsFunc(q, unicode.IsControl):
		return "", apierr.New(apierr.Invalid, "The search can hold only printable text: letters, digits, signs and spaces")
	case utf8.RuneCountInString(q) > MaxSearchLength:
		return "", apierr.New(apierr.Invalid, fmt.Sprintf("The search can be at most %d characters", MaxSearchLength))
	}
	return q, nil
}
