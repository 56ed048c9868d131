// Package settings holds the site settings the founders own: support
// e-mail, phone and WhatsApp numbers, postal address, the social accounts
// and the two team members on the About page. Every key has a built-in
// default (what the app showed before); a value an operator sets wins.
// The console API and `salaula admin settings` both change them here, and
// each change is appended to the audit log in the same transaction.
package settings

import (
	"context"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"unicode/utf8"

	"salaula/internal/apierr"
	"salaula/internal/store"
	"salaula/internal/validate"
)

// Networks are the social accounts, in the order the app shows them.
var Networks = []string{"facebook", "instagram", "x", "linkedin", "youtube", "whatsapp"}

// Social values other than a URL.
const (
	Hidden     = "hidden"      // the network is not shown at all
	ComingSoon = "coming-soon" // shown as "(coming soon)", not as a link
)

// Defaults are the values shipped before the founders set theirs. The
// phone and WhatsApp numbers and the WhatsApp channel have none: a detail
// never set is not shown (see Unset).
var Defaults = map[string]string{
	"support_email":    "support@salaula.co.zm",
	"phone":            "",
	"whatsapp":         "",
	"address":          "New Kasama, Lusaka Zambia",
	"social.facebook":  "https://www.facebook.com/salaulazm",
	"social.instagram": "https://www.instagram.com/salaulazm",
	"social.x":         "https://x.com/salaulazm",
	"social.linkedin":  "https://www.linkedin.com/company/salaulazm",
	"social.youtube":   ComingSoon,
	"social.whatsapp":  Hidden,
	"team.1.name":      "Mwila Chanda",
	"team.1.role":      "Founder & CEO",
	"team.1.text":      "Grew up bargaining at Soweto Market with her mother and still believes the best jacket in town is hiding at the bottom of a bale. She started Salaula so that finding it takes a phone, not a whole Saturday.",
	"team.1.portrait":  "",
	"team.2.name":      "Bwalya Mulenga",
	"team.2.role":      "Senior Founding Engineer",
	"team.2.text":      "Builds Salaula to work on the phones people really carry and the networks they really have. If a page is slow on a bus to Matero, he takes it personally.",
	"team.2.portrait":  "",
}

// Keys lists every setting, in a stable order.
func Keys() []string {
	keys := []string{"support_email", "phone", "whatsapp", "address"}
	for _, n := range Networks {
		keys = append(keys, "social."+n)
	}
	for _, m := range []string{"1", "2"} {
		for _, f := range []string{"name", "role", "text", "portrait"} {
			keys = append(keys, "team."+m+"."+f)
		}
	}
	return keys
}

// Limits on free text, in characters.
const (
	maxShort = 100
	maxText  = 600
	maxURL   = 500
)

// Clean checks value for key and returns it as stored: trimmed, phone
// numbers in their canonical +260 form.
func Clean(key, value string) (string, error) {
	if _, ok := Defaults[key]; !ok {
		return "", apierr.New(apierr.Invalid, fmt.Sprintf("Unknown setting %q: the settings are %s", key, strings.Join(Keys(), ", ")))
	}
	v := strings.TrimSpace(value)
	switch {
	case key == "support_email":
		if !validate.Email(v) || len(v) > 254 {
			return "", apierr.New(apierr.Invalid, "support_email must be an e-mail address, e.g. support@salaula.co.zm")
		}
		return validate.NormaliseEmail(v), nil
	case key == "phone" || key == "whatsapp":
		if v == "" {
			return "", nil // not shown
		}
		canon, ok := validate.ZambianPhone(v)
		if !ok {
			return "", apierr.New(apierr.Invalid, "Enter a Zambian phone number, e.g. +260 97 123 4567 or 097 123 4567 (or nothing, to show none).")
		}
		return canon, nil
	case key == "address":
		return text(key, v, maxShort*2, true)
	case strings.HasPrefix(key, "social."):
		if v == Hidden || v == ComingSoon {
			return v, nil
		}
		if !webURL(v) {
			return "", apierr.New(apierr.Invalid, key+" must be the account's https:// address, "+Hidden+" or "+ComingSoon)
		}
		return v, nil
	case strings.HasSuffix(key, ".portrait"):
		if v == "" || (webURL(v) || strings.HasPrefix(v, "/storage/v1/object/public/")) && !strings.ContainsAny(v, " \"'<>") {
			if utf8.RuneCountInString(v) > maxURL {
				return "", apierr.New(apierr.Invalid, fmt.Sprintf("%s must be at most %d characters", key, maxURL))
			}
			return v, nil
		}
		return "", apierr.New(apierr.Invalid, key+" must be an uploaded image's address, or empty for the drawn portrait")
	case strings.HasSuffix(key, ".text"):
		return text(key, v, maxText, true)
	default: // team name and role
		return text(key, v, maxShort, true)
	}
}

func text(key, v string, max int, required bool) (string, error) {
	if required && v == "" {
		return "", apierr.New(apierr.Invalid, key+" cannot be empty")
	}
	if utf8.RuneCountInString(v) > max {
		return "", apierr.New(apierr.Invalid, fmt.Sprintf("%s must be at most %d characters", key, max))
	}
	if strings.ContainsAny(v, "\x00<>") {
		return "", apierr.New(apierr.Invalid, key+" cannot contain < or >")
	}
	return v, nil
}

func webURL(v string) bool {
	if len(v) > maxURL || strings.ContainsAny(v, " \"'<>") {
		return false
	}
	u, err := url.Parse(v)
	return err == nil && u.Scheme == "https" && u.Host != ""
}

// All returns every key's current value: the operator's where set, else the
// default; supportEmail, when not empty, is the default support_email (the
// server's SALAULA_SUPPORT_EMAIL).
func All(ctx context.Context, db *store.DB, supportEmail string) (map[string]string, error) {
	out := make(map[string]string, len(Defaults))
	for k, v := range Defaults {
		out[k] = v
	}
	if supportEmail != "" {
		out["support_email"] = supportEmail
	}
	if db == nil {
		return out, nil // the defaults alone
	}
	stored, err := db.SiteSettings(ctx)
	if err != nil {
		return nil, err
	}
	for k, v := range stored {
		if _, known := Defaults[k]; known {
			out[k] = v
		}
	}
	return out, nil
}

// Actor is who changes a setting, as the audit log records them.
type Actor struct{ ID, Email, IP string }

// Set checks value, stores it for key and appends "settings.update" to the
// audit log in the same transaction. It returns the value as stored.
func Set(ctx context.Context, db *store.DB, by Actor, key, value string) (string, error) {
	clean, err := Clean(key, value)
	if err != nil {
		return "", err
	}
	err = db.InTx(ctx, func(tx *store.Tx) error {
		old := Defaults[key]
		if v, ok, err := tx.SiteSetting(ctx, key); err != nil {
			return err
		} else if ok {
			old = v
		}
		if old == clean {
			return nil // nothing changes, nothing to audit
		}
		if err := tx.PutSiteSetting(ctx, key, clean, by.Email, store.Now()); err != nil {
			return err
		}
		return store.AppendAudit(ctx, tx, &store.AuditEntry{ActorID: by.ID, ActorEmail: by.Email, IP: by.IP,
			Action: "settings.update", TargetType: "setting", TargetID: key,
			Detail: map[string]any{"from": old, "to": clean}})
	})
	if err != nil {
		return "", err
	}
	return clean, nil
}

// Unset lists, in Keys order, the contact details of v (as All returns it)
// that are still not set, and so not shown: an empty phone or WhatsApp
// number, a hidden WhatsApp channel.
func Unset(v map[string]string) []string {
	var out []string
	for _, k := range []string{"phone", "whatsapp"} {
		if v[k] == "" {
			out = append(out, k)
		}
	}
	if v["social.whatsapp"] == Hidden {
		out = append(out, "social.whatsapp")
	}
	return out
}

// Known says whether key is a setting.
func Known(key string) bool { return slices.Contains(Keys(), key) }

// Number is a phone number as the app shows and links it.
type Number struct {
	E164    string `json:"e164"`    // +260971234567
	Display string `json:"display"` // 097 123 4567, the local format
	Link    string `json:"link"`    // tel:+260971234567 or https://wa.me/260971234567
}

// Social is one shown social account; ComingSoon accounts have no URL.
type Social struct {
	Network    string `json:"network"`
	URL        string `json:"url,omitempty"`
	ComingSoon bool   `json:"comingSoon,omitempty"`
}

// Member is one person on the About page; an empty Portrait means the drawn one.
type Member struct {
	Name     string `json:"name"`
	Role     string `json:"role"`
	Text     string `json:"text"`
	Portrait string `json:"portrait"`
}

// Public is what the app reads at run time (GET /settings.json).
type Public struct {
	SupportEmail string   `json:"supportEmail"`
	Phone        Number   `json:"phone"`
	WhatsApp     Number   `json:"whatsapp"`
	Address      string   `json:"address"`
	Social       []Social `json:"social"`
	Team         []Member `json:"team"`
}

// LocalFormat writes a canonical +260 number the way Zambians write it:
// 097 123 4567 for a mobile, 0211 123 456 for a landline.
func LocalFormat(e164 string) string {
	d := strings.TrimPrefix(e164, "+260")
	if len(d) != 9 {
		return e164
	}
	if strings.HasPrefix(d, "2") {
		return "0" + d[:3] + " " + d[3:6] + " " + d[6:]
	}
	return "0" + d[:2] + " " + d[2:5] + " " + d[5:]
}

// number is e164 as the app shows it; empty (not shown) when not set.
func number(e164, link string) Number {
	if e164 == "" {
		return Number{}
	}
	return Number{E164: e164, Display: LocalFormat(e164), Link: link}
}

// MakePublic turns the values of All into what the app shows.
func MakePublic(v map[string]string) Public {
	p := Public{
		SupportEmail: v["support_email"],
		Phone:        number(v["phone"], "tel:"+v["phone"]),
		WhatsApp:     number(v["whatsapp"], "https://wa.me/"+strings.TrimPrefix(v["whatsapp"], "+")),
		Address:      v["address"],
		Social:       []Social{},
	}
	for _, n := range Networks {
		switch u := v["social."+n]; u {
		case Hidden:
		case ComingSoon:
			p.Social = append(p.Social, Social{Network: n, ComingSoon: true})
		default:
			p.Social = append(p.Social, Social{Network: n, URL: u})
		}
	}
	for _, m := range []string{"1", "2"} {
		p.Team = append(p.Team, Member{Name: v["team."+m+".name"], Role: v["team."+m+".role"], Text: v["team."+m+".text"], Portrait: v["team."+m+".portrait"]})
	}
	return p
}
