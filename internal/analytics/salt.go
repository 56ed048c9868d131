package analytics

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"sync"

	"salaula/internal/store"
)

// salts keeps today's salt: in memory, and on PostgreSQL also in the
// database, so that every instance hashes a visitor the same way. A salt
// is used for one UTC day only; the next day's replaces it and the old one
// is deleted from memory and from the database.
type salts struct {
	db     *store.DB // nil: memory only (SQLite, a single instance)
	mu     sync.Mutex
	day    string
	salt   []byte
	shared bool
}

func newSalts(db *store.DB) *salts {
	return &salts{db: db, shared: db != nil && db.Dialect() == store.Postgres}
}

// visitor is the hash of ip and ua with day's salt, made when there is
// none yet (under the lock, so the salt is never wiped while in use).
func (s *salts) visitor(ctx context.Context, day, ip, ua string) (string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.day != day || s.salt == nil {
		if err := s.load(ctx, day); err != nil {
			return "", err
		}
	}
	return visitorHash(s.salt, ip, ua), nil
}

// load makes or reads day's salt; s.mu is held.
func (s *salts) load(ctx context.Context, day string) error {
	fresh := make([]byte, 32)
	if _, err := rand.Read(fresh); err != nil {
		return err
	}
	if s.shared {
		// The first instance to need today's salt stores it; the others
		// read that one. Older salts are deleted at once.
		if _, err := s.db.Exec(ctx, `INSERT INTO analytics_salts (day, salt) VALUES (?, ?) ON CONFLICT (day) DO NOTHING`,
			day, hex.EncodeToString(fresh)); err != nil {
			return err
		}
		var stored string
		if err := s.db.QueryRow(ctx, `SELECT salt FROM analytics_salts WHERE day = ?`, day).Scan(&stored); err != nil {
			return err
		}
		b, err := hex.DecodeString(stored)
		if err != nil {
			return err
		}
		fresh = b
		if _, err := s.db.Exec(ctx, `DELETE FROM analytics_salts WHERE day < ?`, day); err != nil {
			return err
		}
	}
	s.forget()
	s.day, s.salt = day, fresh
	return nil
}

// rotate drops every salt older than day (from memory and the database),
// so that no salt outlives its day even when no visitor comes.
func (s *salts) rotate(ctx context.Context, day string) error {
	s.mu.Lock()
	if s.day != "" && s.day < day {
		s.forget()
	}
	s.mu.Unlock()
	if s.shared {
		_, err := s.db.Exec(ctx, `DELETE FROM analytics_salts WHERE day < ?`, day)
		return err
	}
	return nil
}

// forget wipes the salt in memory; s.mu is held.
func (s *salts) forget() {
	clear(s.salt)
	s.salt, s.day = nil, ""
}

// visitorHash is the day's pseudonymous visitor id: 16 hex digits of
// SHA-256 over the salt, the IP and the user agent.
func visitorHash(salt []byte, ip, ua string) string {
	h := sha256.New()
	h.Write(salt)
	h.Write([]byte(ip))
	h.Write([]byte{0})
	h.Write([]byte(ua))
	return hex.EncodeToString(h.Sum(nil)[:8])
}
