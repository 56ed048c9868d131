package store_test

import (
	"context"
	"testing"

	"salaula/internal/store"
	"salaula/internal/store/storetest"
)

func TestContactMessageWithAKeyIsStoredOnce(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		ran := 0
		then := func(*store.Tx) error { ran++; return nil }
		for _, key := range []string{"k1", "k1", "", "", "k2"} {
			m := &store.ContactMessage{FirstName: "Chanda", LastName: "Phiri", Email: "p@example.com", Subject: "careers", Message: "Hello", ClientKey: key}
			if err := db.CreateContactMessage(ctx, m, then); err != nil {
				t.Fatalf("key %q: %v", key, err)
			}
		}
		n := 0
		if err := db.EachContactMessage(ctx, func(*store.ContactMessage) error { n++; return nil }); err != nil {
			t.Fatal(err)
		}
		if n != 4 || ran != 4 {
			t.Fatalf("%d messages stored, then ran %d times; want 4 and 4 (k1 once, two without a key, k2)", n, ran)
		}
	})
}
