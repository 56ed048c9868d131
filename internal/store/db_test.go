package store

import "testing"

// rebind numbers every '?' for PostgreSQL, past nine, and keeps the text
// around them (characters of several bytes too); SQLite keeps the query.
func TestRebindNumbersPlaceholders(t *testing.T) {
	pg, lite := &DB{dialect: Postgres}, &DB{dialect: SQLite}
	q := "SELECT 'Ñé€' WHERE a = ? AND b IN (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) -- ✓?"
	want := "SELECT 'Ñé€' WHERE a = $1 AND b IN ($2, $3, $4, $5, $6, $7, $8, $9, $10, $11) -- ✓$12"
	if got := pg.rebind(q); got != want {
		t.Errorf("rebind:\n got %s\nwant %s", got, want)
	}
	if got := pg.rebind("SELECT 1"); got != "SELECT 1" {
		t.Errorf("rebind without placeholders: %s", got)
	}
	if got := lite.rebind(q); got != q {
		t.Errorf("SQLite's query changed: %s", got)
	}
}
