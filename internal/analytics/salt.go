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
// database (store.DaySalt), so that every instance hashes a visitor the
// same way. A salt
// is used for one UTC day only; the next day's replaces it and the old one
// is deleted from memory and from the database.
type salts struct {
	db   *store.DB // nil: memory only
	mu   sync.Mutex
	day  string
	salt []byte
}

func newSalts(db *store.DB) *salts {
	return &salts{db: db}
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
	if s.db != nil {
		stored, err := s.db.DaySalt(ctx, day, hex.EncodeToString(fresh))
		if err != nil {
			return err
		}
		if fresh, err = hex.DecodeString(stored); err != nil {
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
	if s.db != nil {
		return s.db.DeleteSaltsBefore(ctx, day)
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
