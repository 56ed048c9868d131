package server

import (
	"testing"
)

// authScenario is one request to an auth route and the answer a client
// must see: its status and, for failures, the Supabase Auth code and
// message (any message when wantMsg is empty).
type authScenario struct {
	name       string
	method     string
	path       string
	body       any               // JSON body: a map, or a string sent as it is
	headers    map[string]string // more headers (e.g. another Content-Type)
	bearer     string
	wantStatus int
	wantCode   string // "" for a success
	wantMsg    string
	// check, when set, looks further at a failure's body.
	check func(t *testing.T, body map[string]any)
}

// runAuthScenarios sends each scenario to env and checks its answer.
func runAuthScenarios(t *testing.T, env *testEnv, scenarios []authScenario) {
	t.Helper()
	for _, sc := range scenarios {
		t.Run(sc.name, func(t *testing.T) {
			h := map[string]string{"X-Supabase-Api-Version": "2024-01-01"}
			if sc.bearer != "" {
				h["Authorization"] = "Bearer " + sc.bearer
			}
			for k, v := range sc.headers {
				h[k] = v
			}
			res := env.do(t, sc.method, sc.path, sc.body, h)
			if sc.wantCode == "" {
				wantStatus(t, res, sc.wantStatus)
				return
			}
			body := wantAuthError(t, res, sc.wantStatus, sc.wantCode, sc.wantMsg)
			if sc.check != nil {
				sc.check(t, body)
			}
		})
	}
}
