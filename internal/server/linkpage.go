package server

import (
	"crypto/sha256"
	"encoding/base64"
	"html/template"
	"net/http"
)

// Links in e-mails (the waitlist's unsubscribe link, the sign-up
// confirmation link) open a small page of the server. Opening it changes
// nothing: mail systems open links to scan them. The page acts only when
// the person presses its button, which POSTs the form back.

// linkPage is one such page: a title, a text and, when the link can act, a
// form that POSTs Fields (hidden) to Action with a Button.
type linkPage struct {
	Title, Text string
	Action      string            // a path of this site; "" for no form
	Fields      map[string]string // hidden form fields
	Button      string
}

// linkPageStyle is the pages' only style sheet, inline: the app's look (its
// cream page, green bar and white card, 48 px button) without its code.
const linkPageStyle = `body{margin:0;background:#fbf8f3;color:#1f2421;font-family:system-ui,-apple-system,"Segoe UI",Roboto,Arial,sans-serif;line-height:1.5}` +
	`header{background:#1b4332;padding:12px 16px}header a{color:#f4d35e;font-weight:900;font-size:1.25rem;text-decoration:none}` +
	`main{max-width:32rem;margin:24px auto;padding:24px;background:#fff;border-radius:32px}h1{margin-top:0;font-size:1.5rem}` +
	`a{color:#1b4332}button{font:inherit;font-weight:700;min-height:48px;padding:.7rem 1.4rem;border:0;border-radius:999px;background:#1b4332;color:#fff;cursor:pointer}` +
	`@media (max-width:600px){main{margin:16px;padding:20px}}`

// linkPagePolicy is the pages' Content-Security-Policy: their inline style
// sheet (by its hash), forms posting to this site only, nothing else; no
// frame may hold them.
var linkPagePolicy = func() string {
	sum := sha256.Sum256([]byte(linkPageStyle))
	return "default-src 'none'; style-src 'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
}()

var linkPageTemplate = template.Must(template.New("link").Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{.Title}} · Salaula</title>
<style>` + linkPageStyle + `</style>
</head><body><header><a href="/">Salaula</a></header><main>
<h1>{{.Title}}</h1>
<p>{{.Text}}</p>
{{if .Action}}<form method="post" action="{{.Action}}">
{{range $name, $value := .Fields}}<input type="hidden" name="{{$name}}" value="{{$value}}">
{{end}}<button type="submit">{{.Button}}</button>
</form>
{{end}}<p><a href="/">Back to Salaula</a></p>
</main></body></html>
`))

// writeLinkPage answers p with status; nothing of it is cached.
func writeLinkPage(w http.ResponseWriter, status int, p linkPage) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Content-Security-Policy", linkPagePolicy)
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	linkPageTemplate.Execute(w, p)
}
