package store_test

import (
	"context"
	"testing"

	"salaula/internal/store"
	"salaula/internal/store/storetest"
)

// An audit entry written without an ID, a time or a detail is stored with
// all three, in the transaction of the change it records.
func TestAppendAuditFillsItsIDTimeAndDetail(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		e := &store.AuditEntry{ActorID: "op", ActorEmail: "op@example.com", Action: "setting.update", TargetType: "setting",
			TargetID: "phone", IP: "198.51.100.9"}
		if err := db.InTx(ctx, func(tx *store.Tx) error { return store.AppendAudit(ctx, tx, e) }); err != nil {
			t.Fatal(err)
		}
		if !store.IsID(e.ID) || e.CreatedAt.IsZero() || e.Detail == nil {
			t.Fatalf("entry after append: %+v", e)
		}
		var id, detail string
		if err := db.QueryRow(ctx, `SELECT id, detail FROM audit_log WHERE action = 'setting.update'`).Scan(&id, &detail); err != nil {
			t.Fatal(err)
		}
		if id != e.ID || detail != "{}" {
			t.Fatalf("stored id %q detail %q, want %q and {}", id, detail, e.ID)
		}
	})
}
