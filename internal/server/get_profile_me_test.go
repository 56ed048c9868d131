package server

import (
	"context"
	"net/http"
	"testing"

	"salaula/internal/store"
	"salaula/internal/store/storetest"
)

// callProfileMe invokes get-profile-me as supabase-js does, with an optional bearer token.
func (e *testEnv) callProfileMe(t *testing.T, bearer string) map[string]any {
	t.Helper()
	anon := e.anonKey(t)
	h := map[string]string{"apikey": anon}
	if bearer != "" {
		h["Authorization"] = "Bearer " + bearer
	}
	res := e.do(t, "POST", "/functions/v1/get-profile-me", map[string]any{}, h)
	body := decode(t, res)
	body["_status"] = res.StatusCode
	return body
}

func TestGetProfileMeNeedsASession(t *testing.T) {
	eachEngine(t, nil, func(t *testing.T, env *testEnv) {
		anon := env.anonKey(t)
		s := env.signUp(t, "mwila@example.com", goodPassword)
		for name, bearer := range map[string]string{"no token": "", "anon key": anon, "garbage": "x.y.z"} {
			t.Run(name, func(t *testing.T) {
				body := env.callProfileMe(t, bearer)
				if body["_status"] != 401 || str(body, "error") == "" {
					t.Fatalf("get-profile-me with %s = %v; want 401 with an error", name, body)
				}
			})
		}
		if body := env.callProfileMe(t, str(s, "access_token")); body["_status"] != 200 {
			t.Fatalf("signed in: %v", body)
		}
		wantStatus(t, env.authJSON(t, "POST", "/auth/v1/logout", nil, str(s, "access_token")), 204)
		if body := env.callProfileMe(t, str(s, "access_token")); body["_status"] != 401 {
			t.Fatalf("after sign-out: %v; want 401", body)
		}
	})
}

func TestGetProfileMeRole(t *testing.T) {
	eachEngine(t, nil, func(t *testing.T, env *testEnv) {
		s := env.signUp(t, "mwila@example.com", goodPassword)
		userID := str(obj(s, "user"), "id")
		body := env.callProfileMe(t, str(s, "access_token"))
		if body["_status"] != 200 || body["user_id"] != userID {
			t.Fatalf("new account: %v", body)
		}
		if role, present := body["role"]; !present || role != nil {
			t.Fatalf("new account role = %v (present %v); want null", role, present)
		}
		seller := "seller"
		if err := env.DB.UpsertProfile(context.Background(), &store.Profile{UserID: userID, Role: &seller, FullName: "Mwila Banda"}); err != nil {
			t.Fatal(err)
		}
		body = env.callProfileMe(t, str(s, "access_token"))
		if body["_status"] != 200 || body["role"] != "seller" || body["user_id"] != userID {
			t.Fatalf("after onboarding: %v; want role seller", body)
		}
		// Each caller sees only their own profile.
		other := env.signUp(t, "chanda@example.com", goodPassword)
		if body := env.callProfileMe(t, str(other, "access_token")); body["role"] != nil || body["user_id"] == userID {
			t.Fatalf("another user sees %v", body)
		}
	})
}

// A database that does not answer is our fault, not the caller's: every path
// that checks a session answers 503 with a plain message, never 401 (which
// would send a signed-in person back to sign in) and never the database's words.
func TestSessionCheckFailureIs503NotSignedOut(t *testing.T) {
	for _, engine := range storetest.Engines {
		t.Run(string(engine), func(t *testing.T) {
			db := storetest.Open(t, engine)
			env := newTestEnv(t, db, nil)
			u := newUser(t, env, "chanda@example.com")
			db.Close()
			calls := []struct{ method, path, field string }{
				{"POST", "/functions/v1/get-profile-me", "error"},
				{"POST", "/functions/v1/onboard-new-user", "error"},
				{"POST", "/functions/v1/onboard-seller", "error"},
				{"GET", "/auth/v1/user", "msg"},
				{"POST", "/storage/v1/object/user-media/" + u.ID + "/a.png", "message"},
			}
			for _, c := range calls {
				res := env.do(t, c.method, c.path, map[string]any{"userId": u.ID}, u.auth(env))
				wantStatus(t, res, http.StatusServiceUnavailable)
				body := decode(t, res)
				if body[c.field] != msgServiceBusy {
					t.Errorf("%s %s: %s = %v, want %q", c.method, c.path, c.field, body[c.field], msgServiceBusy)
				}
			}
		})
	}
}
