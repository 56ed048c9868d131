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

// binding is one distinct postgres_changes subscription of a channel
// (identical ones of a join share it) with its server-side id.
type binding struct {
	ID    uint32
	Event string // "*", "INSERT", "UPDATE", "DELETE"
	table string // one of store.ChangeTables(), or "" for all of them
	col   string // the filter's column ("" when none)
	val   string // the filter's value
}

// subKey is what a binding follows, by which the hub finds the bindings a
// change may match: a table ("" for all of them) and, for a filtered
// binding, the column and the value it must hold.
type subKey struct{ table, col, val string }

func (b *binding) key() subKey { return subKey{b.table, b.col, b.val} }

// joinConfig is the config of a phx_join.
type joinConfig struct {
	Broadcast struct {
		Self bool `json:"self"`
		Ack  bool `json:"ack"`
	} `json:"broadcast"`
	Presence struct {
		Enabled bool   `json:"enabled"`
		Key     string `json:"key"`
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
// its distinct bindings (identical entries share one, and its id) and the
// join reply's list, one entry per entry of the join, as realtime-js
// matches them; or a reason for the refusal.
func parseBindings(cfg joinConfig) ([]*binding, []map[string]any, string) {
	var out []*binding
	var replies []map[string]any
	byKey := map[string]*binding{}
	ids := map[uint32]bool{}
	for _, pc := range cfg.PostgresChanges {
		b := &binding{}
		if pc.Event == nil {
			return nil, nil, `postgres_changes needs an event: "*", "INSERT", "UPDATE" or "DELETE"`
		}
		switch ev := *pc.Event; ev {
		case "*", "INSERT", "UPDATE", "DELETE":
			b.Event = ev
		default:
			return nil, nil, fmt.Sprintf(`postgres_changes event %q is not "*", "INSERT", "UPDATE" or "DELETE"`, ev)
		}
		if pc.Schema == nil || *pc.Schema != "public" {
			return nil, nil, `postgres_changes schema must be "public"`
		}
		if pc.Table != nil && *pc.Table != "*" && *pc.Table != "" {
			if store.ChangeColumns(*pc.Table) == nil {
				return nil, nil, fmt.Sprintf("table %q is not offered for realtime: follow one of %s", *pc.Table, strings.Join(store.ChangeTables(), ", "))
			}
			b.table = *pc.Table
		}
		filter := ""
		if pc.Filter != nil && *pc.Filter != "" {
			filter = *pc.Filter
			col, rest, ok := strings.Cut(filter, "=")
			val, isEq := strings.CutPrefix(rest, "eq.")
			if !ok || !isEq || col == "" {
				return nil, nil, fmt.Sprintf("filter %q is not offered: write column=eq.value", filter)
			}
			if b.table == "" {
				return nil, nil, "a filter needs a table"
			}
			if !slices.ContainsFunc(store.ChangeColumns(b.table), func(c store.ChangeColumn) bool { return c.Name == col }) {
				return nil, nil, fmt.Sprintf("table %s has no column %q to filter on", b.table, col)
			}
			b.col, b.val = col, val
		}
		k := b.Event + "\x00" + b.table + "\x00" + filter
		if same := byKey[k]; same != nil {
			b = same // a duplicate: one binding, one id, one message
		} else {
			b.ID = bindingID(k)
			for ids[b.ID] {
				b.ID++
			}
			ids[b.ID] = true
			byKey[k] = b
			out = append(out, b)
		}
		// realtime-js matches the reply with what it sent, so echo the
		// schema, table and filter exactly as sent.
		r := map[string]any{"id": b.ID, "event": b.Event, "schema": *pc.Schema}
		if pc.Table != nil && *pc.Table != "" {
			r["table"] = *pc.Table
		}
		if pc.Filter != nil {
			r["filter"] = *pc.Filter
		}
		replies = append(replies, r)
	}
	return out, replies, ""
}

// bindingID is a stable id of a binding's parameters (the same filter gets
// the same id after a reconnect).
func bindingID(key string) uint32 {
	h := fnv.New32a()
	h.Write([]byte(key))
	return h.Sum32() & 0x7fffffff
}

// allowed says why id may not hold a channel of topic with the bindings
// ("" when it may): the Salaula team (operators with two-step sign-in) may
// join every topic and follow every table; a signed-in person no topic of
// the team's or of another person (topicRule) and only their own profile;
// the apikey's role (no person: the zero Identity) the public topics and
// no table.
func allowed(id Identity, topic string, bs []*binding) string {
	if reason := topicRule(id, topic); reason != "" {
		return reason
	}
	if id.Operator {
		return ""
	}
	if id.UserID == "" && len(bs) > 0 {
		return msgAnonChanges
	}
	for _, b := range bs {
		own := b.table == store.TableProfiles && b.col == "user_id" && b.val == id.UserID
		if own {
			continue
		}
		if id.NeedsAAL2 {
			return msgNeedsAAL2
		}
		return "You may follow only your own profile: table profiles with filter user_id=eq.<your user id>"
	}
	return ""
}

const msgNeedsAAL2 = "The Salaula team's live updates need two-step sign-in: sign in with your authenticator code (aal2)"

// Topics that belong to someone: realtime:console (and every topic whose
// name starts with console) is the Salaula team's; realtime:profile:<user
// id> is that person's.
const (
	teamTopic    = "console"
	personTopic  = "profile:"
	topicForTeam = "Channel %s is the Salaula team's: only operators with two-step sign-in may join it or broadcast on it"
	topicOfOther = "Channel %s is another person's: join realtime:profile:<your user id>"
	// Without a person's token (no access_token, or the anon key).
	topicForAnon   = "Sign in to use live updates: channel %s is not open to the anon key, and the join carries no person's access_token"
	msgAnonChanges = "Sign in to use live updates: postgres_changes are not open to the anon key, and the join carries no person's access_token"
)

// topicRule says why id may not join or broadcast on topic ("" when it
// may): the team's topics are for operators only, a person's topic for
// that person (and operators); every other topic is public, open to
// anyone with the apikey.
func topicRule(id Identity, topic string) string {
	if id.Operator {
		return ""
	}
	name := strings.TrimPrefix(topic, topicPrefix)
	team, personal := strings.HasPrefix(name, teamTopic), strings.HasPrefix(name, personTopic)
	switch {
	case !team && !personal:
		return ""
	case id.UserID == "":
		return fmt.Sprintf(topicForAnon, topic)
	case team && id.NeedsAAL2:
		return msgNeedsAAL2
	case team:
		return fmt.Sprintf(topicForTeam, topic)
	case strings.TrimPrefix(name, personTopic) != id.UserID:
		return fmt.Sprintf(topicOfOther, topic)
	}
	return ""
}

// changeRow is the row a filter looks at: the record, or for a DELETE the
// old record (its key).
func changeRow(c *store.Change) map[string]any {
	if c.Type == "DELETE" {
		return c.OldRecord
	}
	return c.Record
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
	return cellString(changeRow(c)["user_id"]) == id.UserID && id.UserID != ""
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

// Reasons a channel is closed when access ends.
const (
	ReasonSessionEnded   = "Your session has ended or was signed out: sign in again"
	ReasonAccountDeleted = "This account was deleted"
)

// revocation is what a change takes away and from whom: the channels of
// a session that ended, or of a deleted account (session ""), or an
// account's operator access when its role is removed (demoted). user ""
// means nothing.
type revocation struct {
	user, session string
	demoted       bool
	reason        string
}

// revocationOf reads what change c takes away: an ended session
// (store.TableSessions), a deleted account, an account updated without
// the operator role.
func revocationOf(c *store.Change) revocation {
	switch c.Table {
	case store.TableSessions:
		user, _ := c.Record["user_id"].(string)
		session, _ := c.Record["id"].(string)
		if session == "" {
			return revocation{}
		}
		return revocation{user: user, session: session, reason: ReasonSessionEnded}
	case store.TableAccounts:
		if c.Type == "DELETE" {
			user, _ := c.OldRecord["id"].(string)
			return revocation{user: user, reason: ReasonAccountDeleted}
		}
		if admin, ok := c.Record["is_admin"].(bool); ok && !admin {
			user, _ := c.Record["id"].(string)
			return revocation{user: user, demoted: true}
		}
	}
	return revocation{}
}
