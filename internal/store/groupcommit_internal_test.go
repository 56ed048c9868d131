package store

import (
	"context"
	"testing"
)

// On SQLite a write that finds the writer idle is committed on its
// caller's goroutine, answered before commitIfIdle returns; one that finds
// the lane busy, or other writes waiting for it, is left to queue.
func TestALoneWriteIsCommittedByItsCaller(t *testing.T) {
	ctx := context.Background()
	db, err := Open(ctx, "", t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Migrate(ctx); err != nil {
		t.Fatal(err)
	}
	w := db.writer
	write := func(id string) *writeReq {
		return &writeReq{ctx: ctx, done: make(chan writeResult, 1), fn: func(tx *Tx) error {
			_, err := tx.Exec(ctx, `INSERT INTO contact_messages (id, first_name, last_name, email, subject, message, created_at)
				VALUES (?, 'A', 'B', 'a@example.com', 'other', 'hello there', ?)`, id, Now())
			return err
		}}
	}
	r := write("idle")
	if !w.commitIfIdle(r) {
		t.Fatal("a write on an idle writer was left to queue")
	}
	select {
	case res := <-r.done:
		if res.err != nil {
			t.Fatalf("the caller's commit: %v", res.err)
		}
	default:
		t.Fatal("commitIfIdle returned before the write was answered")
	}
	var n int
	if err := db.QueryRow(ctx, `SELECT COUNT(*) FROM contact_messages WHERE id = 'idle'`).Scan(&n); err != nil || n != 1 {
		t.Fatalf("stored %d rows (%v), want 1", n, err)
	}

	w.lanes[0].busy.Lock()
	if w.commitIfIdle(write("busy")) {
		t.Error("a write was committed by its caller while the lane was busy")
	}
	w.lanes[0].busy.Unlock()

	w.queued.Add(1)
	if w.commitIfIdle(write("behind")) {
		t.Error("a write was committed by its caller ahead of writes waiting for the lane")
	}
	w.queued.Add(-1)

	// While commits carry several writes, a write queues for the next
	// group; once one goes alone, lone writes are the caller's again.
	w.lastGroup.Store(5)
	if w.commitIfIdle(write("stream")) {
		t.Error("a write was committed by its caller while writes came in groups")
	}
	w.lastGroup.Store(1)
	if r := write("alone-again"); !w.commitIfIdle(r) || (<-r.done).err != nil {
		t.Error("a lone write after a lone commit was not committed by its caller")
	}
}
