package store

import (
	"context"
	"encoding/json"
	"errors"
)

// TableRealtime is the table of the changes that carry a realtime hub's
// message to the hubs of the other instances (broadcasts and presence):
// Record["m"] holds the message as the hub wrote it. Realtime clients may
// not follow it (ChangeColumns and ChangeTables leave it out).
const TableRealtime = "realtime"

// MaxRelayBytes bounds a message Relay carries, counted JSON-quoted as it
// travels inside a notice (PostgreSQL's NOTIFY takes at most 8000 bytes).
const MaxRelayBytes = 6000

// ErrRelayTooLarge is Relay's answer to a message over MaxRelayBytes once
// quoted.
var ErrRelayTooLarge = errors.New("message too large to reach the other instances")

// Relay hands msg to every instance on the database: their change
// listeners receive a Change of TableRealtime whose Record["m"] is msg
// (the sender's own listener too). On PostgreSQL it is a NOTIFY of its own,
// delivered in the order such calls return; on SQLite, where one process
// holds the database, there is no other instance and Relay does nothing.
func (db *DB) Relay(ctx context.Context, msg string) error {
	if db.dialect != Postgres {
		return nil
	}
	if q, _ := json.Marshal(msg); len(q) > MaxRelayBytes {
		return ErrRelayTooLarge
	}
	b, err := json.Marshal([]notice{{Change: Change{Table: TableRealtime, Type: "MESSAGE", Record: map[string]any{"m": msg}}}})
	if err != nil {
		return err
	}
	_, err = db.sql.ExecContext(ctx, `SELECT pg_notify($1, $2)`, notifyChannel, string(b))
	return err
}
