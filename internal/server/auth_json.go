package server

import (
	"encoding/json"
	"net/http"
	"time"

	"github.com/google/uuid"

	"salaula/internal/auth"
	"salaula/internal/store"
	"salaula/internal/token"
)

// The Supabase Auth API version this server speaks. supabase-js reads error
// codes from the body's "code" field when an answer carries this version.
const (
	apiVersionHeader = "X-Supabase-Api-Version"
	apiVersion       = "2024-01-01"
)

// authError is the Supabase Auth error body. "code" holds the error code
// string (what supabase-js reads for API version 2024-01-01) and
// "error_code" the same code for older clients; "msg" is the message.
type authError struct {
	Code         string            `json:"code"`
	ErrorCode    string            `json:"error_code"`
	Msg          string            `json:"msg"`
	WeakPassword *weakPasswordInfo `json:"weak_password,omitempty"`
}

type weakPasswordInfo struct {
	Reasons []string `json:"reasons"`
}

// withAuthAPIVersion adds the API version header to another handler's answers.
func withAuthAPIVersion(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set(apiVersionHeader, apiVersion)
		next.ServeHTTP(w, r)
	})
}

// writeAuthJSON answers a successful auth call.
func writeAuthJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set(apiVersionHeader, apiVersion)
	writeJSON(w, status, v)
}

// userJSON is a user as the Supabase Auth API shows it.
type userJSON struct {
	ID                 string          `json:"id"`
	Aud                string          `json:"aud"`
	Role               string          `json:"role"`
	Email              string          `json:"email"`
	EmailConfirmedAt   *time.Time      `json:"email_confirmed_at,omitempty"`
	Phone              string          `json:"phone"`
	ConfirmationSentAt *time.Time      `json:"confirmation_sent_at,omitempty"`
	ConfirmedAt        *time.Time      `json:"confirmed_at,omitempty"`
	LastSignInAt       *time.Time      `json:"last_sign_in_at,omitempty"`
	AppMetadata        appMetadata     `json:"app_metadata"`
	UserMetadata       json.RawMessage `json:"user_metadata"`
	Identities         []identityJSON  `json:"identities"`
	CreatedAt          time.Time       `json:"created_at"`
	UpdatedAt          time.Time       `json:"updated_at"`
	IsAnonymous        bool            `json:"is_anonymous"`
	Factors            []factorJSON    `json:"factors,omitempty"`
}

// factorJSON is a second factor as the Supabase Auth API shows it.
type factorJSON struct {
	ID               string     `json:"id"`
	FriendlyName     string     `json:"friendly_name"`
	FactorType       string     `json:"factor_type"`
	Status           string     `json:"status"`
	CreatedAt        time.Time  `json:"created_at"`
	UpdatedAt        time.Time  `json:"updated_at"`
	LastChallengedAt *time.Time `json:"last_challenged_at,omitempty"`
}

func toFactorJSON(f store.Factor) factorJSON {
	return factorJSON{ID: f.ID, FriendlyName: f.FriendlyName, FactorType: f.Type, Status: f.Status,
		CreatedAt: f.CreatedAt, UpdatedAt: f.UpdatedAt, LastChallengedAt: f.LastChallengedAt}
}

// userAnswer shows u with factors.
func userAnswer(u *store.User, factors []store.Factor) userJSON {
	uj := toUserJSON(u)
	for _, f := range factors {
		uj.Factors = append(uj.Factors, toFactorJSON(f))
	}
	return uj
}

// writeUser answers 200 with u and its factors.
func (s *Server) writeUser(w http.ResponseWriter, r *http.Request, u *store.User) {
	factors, err := s.auth.FactorsOf(r.Context(), u)
	if err != nil {
		s.renderAuthError(w, "list factors", err)
		return
	}
	writeAuthJSON(w, http.StatusOK, userAnswer(u, factors))
}

type appMetadata struct {
	Provider  string   `json:"provider"`
	Providers []string `json:"providers"`
}

// identityJSON is the user's e-mail identity.
type identityJSON struct {
	IdentityID   string         `json:"identity_id"`
	ID           string         `json:"id"`
	UserID       string         `json:"user_id"`
	IdentityData map[string]any `json:"identity_data"`
	Provider     string         `json:"provider"`
	LastSignInAt *time.Time     `json:"last_sign_in_at,omitempty"`
	CreatedAt    time.Time      `json:"created_at"`
	UpdatedAt    time.Time      `json:"updated_at"`
	Email        string         `json:"email"`
}

// identityNamespace derives a stable identity id from a user id.
var identityNamespace = uuid.MustParse("6f1d2c8e-5b0a-4c4e-9a51-2b7f3c9d8e10")

// toUserJSON shows u in the Supabase Auth shape.
func toUserJSON(u *store.User) userJSON {
	meta := json.RawMessage(u.UserMetadata)
	if !json.Valid(meta) {
		meta = json.RawMessage("{}")
	}
	return userJSON{
		ID: u.ID, Aud: "authenticated", Role: "authenticated", Email: u.Email,
		EmailConfirmedAt: u.EmailConfirmedAt, ConfirmedAt: u.EmailConfirmedAt, LastSignInAt: u.LastSignInAt,
		AppMetadata:  appMetadata{Provider: "email", Providers: []string{"email"}},
		UserMetadata: meta,
		Identities: []identityJSON{{
			IdentityID: uuid.NewSHA1(identityNamespace, []byte(u.ID)).String(), ID: u.ID, UserID: u.ID,
			IdentityData: map[string]any{"email": u.Email, "email_verified": u.EmailConfirmedAt != nil, "phone_verified": false, "sub": u.ID},
			Provider:     "email", LastSignInAt: u.LastSignInAt, CreatedAt: u.CreatedAt, UpdatedAt: u.UpdatedAt, Email: u.Email,
		}},
		CreatedAt: u.CreatedAt, UpdatedAt: u.UpdatedAt,
	}
}

// sessionJSON is a session as the Supabase Auth API answers it.
type sessionJSON struct {
	AccessToken  string   `json:"access_token"`
	TokenType    string   `json:"token_type"`
	ExpiresIn    int64    `json:"expires_in"`
	ExpiresAt    int64    `json:"expires_at"`
	RefreshToken string   `json:"refresh_token"`
	User         userJSON `json:"user"`
}

// toSessionJSON shows a session in the Supabase Auth shape.
func toSessionJSON(sess *auth.Session) sessionJSON {
	return sessionJSON{AccessToken: sess.AccessToken, TokenType: "bearer", ExpiresIn: sess.ExpiresIn,
		ExpiresAt: sess.ExpiresAt, RefreshToken: sess.RefreshToken, User: userAnswer(sess.User, sess.Factors)}
}

// hashToken is what the database keeps of a token (token.Hash).
func hashToken(tok string) string { return token.Hash(tok) }
