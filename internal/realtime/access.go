package realtime

import (
	"encoding/json"
	"fmt"
	"hash/fnv"
	"slices"
	"strings"
	"time"

	"salaula/internal/store"
)

// Identity is who holds an access token: the account, its session, until
// when the token is valid, and whether the account is an operator now (the
// role and a two-step (aal2) session). NeedsAAL2 is set for an operator
// whose session is password-only.
type Identity struct {
	UserID    string
	SessionID string
	Expires   time.Time
	Operator  bool
	NeedsAAL2 bool
}

// binding is one postgres_changes subscription of a channel, as the client
// asked for it (echoed in the join reply) with its server-side id.
type binding struct {
	ID     uint32
	Event  string  // "*", "INSERT", "UPDATE", "DELETE"
	Schema string  // "public"
	Table  string  // one of store.ChangeTables(), or "" for all of them
	Filter *string // "column=eq.value", as sent; nil when none
	col    string
	val    string
}

// reply is how the join reply lists the binding; realtime-js matches each
// field against what it sent.
func (b *binding) reply() map[string]any {
	r := map[string]any{"id": b.ID, "event": b.Event, "schema": b.Schema}
	if b.Table != "" {
		r["table"] = b.Table
	}
	if b.Filter != nil {
		r["filter"] = *b.Filter
	}
	return r
}

// joinConfig is the config of a phx_join.
type joinConfig struct {
	Broadcast struct {
		Self bool `json:"self"`
		Ack  bool `json:"ack"`
	} `json:"broadcast"`
	Presence struct {
		Enabled bool `json:"enabled"`
	} `json:"presence"`
	PostgresChanges []struct {
		Event  *string `json:"event"`
		Schema *string `json:"schema"`
		Table  *string `json:"table"`
		Filter *string `json:"filter"`
	} `json:"postgres_changes"`
	Private bool `json:"private"`
}

// joinPayload is a phx_join's payload.
type joinPayload struct {
	Config      joinConfig `json:"config"`
	AccessToken *string    `json:"access_token"`
}

// parseBindings checks every postgres_changes entry of a join and returns
// the bindings, or a reason for the refusal.
func parseBindings(cfg joinConfig) ([]*binding, string) {
	var out []*binding
	seen := map[uint32]bool{}
	for _, pc := range cfg.PostgresChanges {
		b := &binding{Schema: "public", Filter: pc.Filter}
		if pc.Event == nil {
			return nil, `postgres_changes needs an event: "*", "INSERT", "UPDATE" or "DELETE"`
		}
		switch ev := *pc.Event; ev {
		case "*", "INSERT", "UPDATE", "DELETE":
			b.Event = ev
		default:
			return nil, fmt.Sprintf(`postgres_changes event %q is not "*", "INSERT", "UPDATE" or "DELETE"`, ev)
		}
		if pc.Schema == nil || *pc.Schema != "public" {
			return nil, `postgres_changes schema must be "public"`
		}
		if pc.Table != nil && *pc.Table != "*" && *pc.Table != "" {
			if store.ChangeColumns(*pc.Table) == nil {
				return nil, fmt.Sprintf("table %q is not offered for realtime: follow one of %s", *pc.Table, strings.Join(store.ChangeTables(), ", "))
			}
			b.Table = *pc.Table
		}
		if pc.Filter != nil && *pc.Filter != "" {
			col, rest, ok := strings.Cut(*pc.Filter, "=")
			val, isEq := strings.CutPrefix(rest, "eq.")
			if !ok || !isEq || col == "" {
				return nil, fmt.Sprintf("filter %q is not offered: write column=eq.value", *pc.Filter)
			}
			if b.Table == "" {
				return nil, "a filter needs a table"
			}
			if !slices.ContainsFunc(store.ChangeColumns(b.Table), func(c store.ChangeColumn) bool { return c.Name == col }) {
				return nil, fmt.Sprintf("table %s has no column %q to filter on", b.Table, col)
			}
			b.col, b.val = col, val
		}
		b.ID = bindingID(b)
		for seen[b.ID] {
			b.ID++
		}
		seen[b.ID] = true
		// realtime-js matches bindings with what it sent, so echo the
		// schema and table exactly as sent.
		b.Schema = *pc.Schema
		if pc.Table != nil && b.Table == "" {
			b.Table = *pc.Table
		}
		out = append(out, b)
	}
	return out, ""
}

// bindingID is a stable id of a binding's parameters (the same filter gets
// the same id after a reconnect).
func bindingID(b *binding) uint32 {
	h := fnv.New32a()
	f := ""
	if b.Filter != nil {
		f = *b.Filter
	}
	h.Write([]byte(b.Event + "\x00" + b.Schema + "\x00" + b.Table + "\x00" + f))
	return h.Sum32() & 0x7fffffff
}

// table is the table a binding follows, "" for all of them.
func (b *binding) table() string {
	if b.Table == "*" {
		return ""
	}
	return b.Table
}

// allowed says why id may not hold the bindings ("" when it may): the
// Salaula team (operators with two-step sign-in) may follow every table; a
// signed-in person only their own profile.
func allowed(id Identity, bs []*binding) string {
	if id.Operator {
		return ""
	}
	for _, b := range bs {
		own := b.table() == store.TableProfiles && b.col == "user_id" && b.val == id.UserID
		if own {
			continue
		}
		if id.NeedsAAL2 {
			return "The Salaula team's live updates need two-step sign-in: sign in with your authenticator code (aal2)"
		}
		return "You may follow only your own profile: table profiles with filter user_id=eq.<your user id>"
	}
	return ""
}

// matches reports whether change c is one b follows.
func (b *binding) matches(c *store.Change) bool {
	if t := b.table(); t != "" && t != c.Table {
		return false
	}
	if b.Event != "*" && b.Event != c.Type {
		return false
	}
	if b.col == "" {
		return true
	}
	rec := c.Record
	if c.Type == "DELETE" {
		rec = c.OldRecord
	}
	v, ok := rec[b.col]
	if !ok {
		return false
	}
	return cellString(v) == b.val
}

// visible reports whether id may see change c at all (checked for every
// event, besides the join's check).
func visible(id Identity, c *store.Change) bool {
	if id.Operator {
		return true
	}
	if c.Table != store.TableProfiles {
		return false
	}
	rec := c.Record
	if c.Type == "DELETE" {
		rec = c.OldRecord
	}
	return cellString(rec["user_id"]) == id.UserID && id.UserID != ""
}

// cellString is a record value as a filter compares it.
func cellString(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case string:
		return x
	case json.RawMessage:
		return string(x)
	default:
		return fmt.Sprint(x)
	}
}
