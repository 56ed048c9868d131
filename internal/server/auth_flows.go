package server

import (
	"encoding/json"
	"mime"
	"net/http"
	"net/url"
	"strings"

	"salaula/internal/auth"
)

// handleVerify uses a reset or confirmation token sent by e-mail. A JSON
// body ({"type": "recovery", "token_hash": "..."}, what supabase-js
// verifyOtp sends) answers a session (auth.Service.Verify). A form (the
// button of the page the e-mailed link opens, see handleVerifyPage) is the
// link itself: see verifyLinkForm.
func (s *Server) handleVerify() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type")); mt == "application/x-www-form-urlencoded" {
			s.verifyLinkForm(w, r)
			return
		}
		var body struct {
			Type      string `json:"type"`
			TokenHash string `json:"token_hash"`
			Token     string `json:"token"`
		}
		if !s.decodeAuth(w, r, &body) {
			return
		}
		sess, err := s.auth.Verify(r.Context(), body.Type, body.TokenHash, s.client(r))
		s.answerSession(w, "verify", sess, err)
	})
}

// verifyPage is the page an e-mailed link of type typ opens.
func verifyPage(typ string) linkPage {
	if typ == "recovery" {
		return linkPage{Title: "Reset your password", Button: "Choose a new password",
			Text: "Press the button to choose a new password for your Salaula account. If you did not ask for this, close this page: your password stays as it is."}
	}
	return linkPage{Title: "Confirm your e-mail address", Button: "Confirm and sign in",
		Text: "Press the button to confirm your e-mail address and sign in to Salaula. If you did not sign up, close this page: nothing changes."}
}

// Fragments of a link that could not be used, as the hosted service sends them.
var (
	linkMalformed = url.Values{"error": {"invalid_request"}, "error_code": {"validation_failed"}, "error_description": {"Verify requires a token and a type"}}
	linkExpired   = url.Values{"error": {"access_denied"}, "error_code": {"otp_expired"}, "error_description": {msgLinkInvalid}}
)

// linkFailure is the fragment for err of auth.Service.CheckLink or UseLink.
func linkFailure(err error) url.Values {
	if auth.CodeOf(err) == auth.CodeLinkInvalid {
		return linkExpired
	}
	return linkMalformed
}

// handleVerifyPage is the e-mailed link (GET /auth/v1/verify?token=...&
// type=...&redirect_to=...). Opening it spends nothing, since mail systems
// open links to scan them: a usable token answers a page whose button
// POSTs the same fields back (verifyLinkForm); a link without a token or
// with a used or expired one sends the browser to redirect_to with the
// error in the URL fragment, as the hosted service does.
func (s *Server) handleVerifyPage() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query()
		typ, tok := q.Get("type"), q.Get("token")
		if err := s.auth.CheckLink(r.Context(), typ, tok); err != nil {
			s.verifyRedirect(w, r, typ, q.Get("redirect_to"), linkFailure(err))
			return
		}
		page := verifyPage(typ)
		page.Action = "/auth/v1/verify"
		page.Fields = map[string]string{"type": typ, "token": tok, "redirect_to": q.Get("redirect_to")}
		w.Header().Set(apiVersionHeader, apiVersion)
		writeLinkPage(w, http.StatusOK, page)
	})
}

// verifyLinkForm is the button of the link's page (a form: type, token,
// redirect_to): it uses the link (auth.Service.UseLink) and sends the
// browser to redirect_to (on this site) with the session in the URL
// fragment, which supabase-js picks up, or, in a PKCE flow, with a
// one-time code; or with the error.
func (s *Server) verifyLinkForm(w http.ResponseWriter, r *http.Request) {
	const maxForm = 8 << 10
	if r.ContentLength > maxForm {
		s.verifyRedirect(w, r, "", "", linkMalformed)
		return
	}
	r.Body = http.MaxBytesReader(w, r.Body, maxForm)
	if err := r.ParseForm(); err != nil {
		s.verifyRedirect(w, r, "", "", linkMalformed)
		return
	}
	typ, tok, redirectTo := r.PostFormValue("type"), r.PostFormValue("token"), r.PostFormValue("redirect_to")
	res, err := s.auth.UseLink(r.Context(), typ, tok, s.client(r))
	switch {
	case err != nil:
		s.verifyRedirect(w, r, typ, redirectTo, linkFailure(err))
	case res.Code != "":
		target := s.onSite(s.auth.SafeRedirect(redirectTo, verifyDefaultPage(typ)))
		w.Header().Set(apiVersionHeader, apiVersion)
		w.Header().Set("Cache-Control", "no-store")
		http.Redirect(w, r, withQuery(target, "code", res.Code), http.StatusSeeOther)
	default:
		sess := res.Session
		s.verifyRedirect(w, r, typ, redirectTo, url.Values{
			"access_token": {sess.AccessToken}, "token_type": {"bearer"}, "expires_in": {jsonNumber(sess.ExpiresIn)},
			"expires_at": {jsonNumber(sess.ExpiresAt)}, "refresh_token": {sess.RefreshToken}, "type": {typ},
		})
	}
}

// verifyDefaultPage is where a link of type typ goes when its redirect_to
// is missing or not on this site.
func verifyDefaultPage(typ string) string {
	if typ == "recovery" {
		return "/reset_password"
	}
	return "/sign_up"
}

// verifyRedirect sends the browser to redirectTo (on this site, else the
// type's page) with fragment.
func (s *Server) verifyRedirect(w http.ResponseWriter, r *http.Request, typ, redirectTo string, fragment url.Values) {
	target := s.onSite(s.auth.SafeRedirect(redirectTo, verifyDefaultPage(typ)))
	w.Header().Set(apiVersionHeader, apiVersion)
	w.Header().Set("Cache-Control", "no-store")
	http.Redirect(w, r, target+"#"+fragment.Encode(), http.StatusSeeOther)
}

// onSite is target, a page of this site (auth.Service.SafeRedirect), as a
// path without the site's address: the browser stays at the address the
// link's page was opened at, which is the only place its button's form may
// lead (form-action 'self'), whatever --public-url says.
func (s *Server) onSite(target string) string {
	rest, ok := strings.CutPrefix(target, s.cfg.PublicURL)
	if !ok {
		return target
	}
	return "/" + strings.TrimLeft(rest, "/\\")
}

// withQuery adds key=value to the query of target (before any fragment).
func withQuery(target, key, value string) string {
	frag := ""
	if i := strings.Index(target, "#"); i >= 0 {
		target, frag = target[:i], target[i:]
	}
	sep := "?"
	if strings.Contains(target, "?") {
		sep = "&"
	}
	return target + sep + key + "=" + value + frag
}

func jsonNumber(n int64) string {
	b, _ := json.Marshal(n)
	return string(b)
}
