package server

import (
	"bytes"
	"encoding/json"
	"net/http"

	"salaula/internal/apierr"
	"salaula/internal/console"
	"salaula/internal/settings"
)

// The site settings (internal/settings): the app reads them from
// /settings.json at run time; operators read and change them under
// /admin/v1/settings.

// handleSettings answers GET /settings.json, the settings the app shows.
// Browsers revalidate it on every visit (no-cache), so a change shows on
// the next page load; as the app's files, it has a strong ETag (a hash of
// its body: 304 when unchanged, the same on every instance) and comes in
// brotli or gzip. The last answer is kept with its compressed forms until
// the settings change.
func (s *Server) handleSettings() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		v, err := settings.All(r.Context(), s.db, s.cfg.SupportEmail)
		var body []byte
		if err == nil {
			body, err = json.Marshal(settings.MakePublic(v))
		}
		if err != nil {
			s.logger.Error("read settings", "err", err)
			writeJSON(w, http.StatusServiceUnavailable, map[string]string{"error": msgServiceBusy})
			return
		}
		f := s.settingsFile.Load()
		if f == nil || !bytes.Equal(f.body, body) {
			f = newAppFile(body, "application/json; charset=utf-8")
			s.settingsFile.Store(f)
		}
		w.Header().Set("Cache-Control", "no-cache") // kept, but checked with the server on every visit
		serveAppFile(w, r, f)
	})
}

// adminSettings is what the console's Settings page shows.
type adminSettings struct {
	Keys     []string          `json:"keys"`
	Values   map[string]string `json:"values"`
	Defaults map[string]string `json:"defaults"`
	Public   settings.Public   `json:"public"`
	Unset    []string          `json:"unset"` // contact details not set, so not shown
}

func (s *Server) readAdminSettings(w http.ResponseWriter, r *http.Request) {
	v, err := settings.All(r.Context(), s.db, s.cfg.SupportEmail)
	if err != nil {
		s.renderAdminError(w, "settings", err)
		return
	}
	defaults, _ := settings.All(r.Context(), nil, s.cfg.SupportEmail)
	writeJSON(w, http.StatusOK, adminSettings{Keys: settings.Keys(), Values: v, Defaults: defaults, Public: settings.MakePublic(v), Unset: settings.Unset(v)})
}

func (s *Server) handleAdminSettings() http.Handler {
	return s.operator(func(w http.ResponseWriter, r *http.Request, _ console.Actor) {
		s.readAdminSettings(w, r)
	})
}

// handleAdminSetSetting answers PUT /admin/v1/settings/{key} with body
// {"value": "..."}: 400 with a message for an unknown key or a bad value,
// else the settings as they now are.
func (s *Server) handleAdminSetSetting() http.Handler {
	return s.operator(func(w http.ResponseWriter, r *http.Request, by console.Actor) {
		var body struct {
			Value *string `json:"value" text:"multiline"` // the team's texts are paragraphs
		}
		err := decodeJSON(w, r, &body)
		if err == nil && body.Value == nil {
			err = apierr.New(apierr.Invalid, `Send the new value as {"value": "..."}`)
		}
		if err == nil {
			_, err = settings.Set(r.Context(), s.db, settings.Actor{ID: by.ID, Email: by.Email, IP: by.IP}, r.PathValue("key"), *body.Value)
		}
		if err != nil {
			s.renderAdminError(w, "set setting", err)
			return
		}
		s.readAdminSettings(w, r)
	})
}
