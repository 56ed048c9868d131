package server

import (
	"context"
	"encoding/csv"
	"net/http"
	"net/url"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"salaula/internal/clientip"
	"salaula/internal/config"
	"salaula/internal/mail"
)

// trustLoopback makes the server read the client's IP from
// X-Forwarded-For, so the tests can join from several devices.
func trustLoopback(c *config.Config) {
	noFormLimit(c)
	c.TrustedProxies, _ = clientip.Parse("127.0.0.1, ::1")
}

// joinFrom signs email up for the Upcycling Initiative from ip, with ref.
func joinFrom(t *testing.T, env *testEnv, email, ref, ip string) map[string]any {
	t.Helper()
	res := env.do(t, "POST", "/functions/v1/waitlist-signup", map[string]any{"email": email, "programName": "Upcycling Initiative",
		"pagePath": "/upcycling", "ref": ref}, map[string]string{"X-Forwarded-For": ip})
	wantStatus(t, res, http.StatusOK)
	return decode(t, res)
}

// confirmFrom presses the button of the confirm link in the latest e-mail
// to email, from ip, and returns the place and link code the browser is
// sent on with.
func confirmFrom(t *testing.T, env *testEnv, email, ip string) (place, code string) {
	t.Helper()
	sent, err := mail.Recent(context.Background(), env.DB, email, 1)
	if err != nil || len(sent) == 0 {
		t.Fatalf("no e-mail to %s: %v", email, err)
	}
	link := confirmLink.FindString(sent[0].Body)
	if !strings.HasPrefix(link, env.Config.PublicURL+"/functions/v1/waitlist-confirm?token=") {
		t.Fatalf("no confirm link in %q", sent[0].Body)
	}
	path := strings.TrimPrefix(link, env.Config.PublicURL)
	wantStatus(t, env.do(t, "GET", path, nil, map[string]string{"X-Forwarded-For": ip}), http.StatusOK)
	res := env.do(t, "POST", path, "", map[string]string{"Content-Type": "application/x-www-form-urlencoded", "X-Forwarded-For": ip})
	wantStatus(t, res, http.StatusSeeOther)
	loc, err := url.Parse(res.Header.Get("Location"))
	if err != nil || loc.Host != "" || loc.Path != "/upcycling" {
		t.Fatalf("the confirm button leads to %q", res.Header.Get("Location"))
	}
	frag, _ := url.ParseQuery(loc.Fragment)
	return frag.Get("wl_place"), frag.Get("wl_ref")
}

// placeOf is the place in line of email's sign-up.
func placeOf(t *testing.T, env *testEnv, email string) int {
	t.Helper()
	su, err := env.DB.WaitlistSignupByEmail(context.Background(), email, "Upcycling Initiative")
	if err != nil {
		t.Fatal(err)
	}
	p, err := env.DB.PlaceInLine(context.Background(), su.ID)
	if err != nil {
		t.Fatal(err)
	}
	return p.Position
}

// Referral credit goes only to friends who exist: ten invented addresses
// from ten devices move the owner nowhere; each friend who presses the
// confirm link's button moves the owner up; one mailbox written two ways
// is one friend; self-referrals are not credited.
func TestReferralCreditOnlyForConfirmedFriends(t *testing.T) {
	t.Parallel()
	eachEngine(t, trustLoopback, func(t *testing.T, env *testEnv) {
		for i := range 31 {
			joinFrom(t, env, "early"+string(rune('a'+i%26))+string(rune('a'+i/26))+"@example.com", "", "10.0.1."+strconv.Itoa(i+1))
		}
		joinFrom(t, env, "owner@example.com", "", "10.9.9.9")
		place, code := confirmFrom(t, env, "owner@example.com", "10.9.9.9")
		if place != "32" || len(code) != 10 {
			t.Fatalf("owner confirmed: place %q, code %q", place, code)
		}
		friends := []string{}
		for i := range 10 {
			f := "invented" + strconv.Itoa(i) + "@example.com"
			friends = append(friends, f)
			joinFrom(t, env, f, code, "10.2.0."+strconv.Itoa(i+1))
		}
		if p := placeOf(t, env, "owner@example.com"); p != 32 {
			t.Fatalf("ten unconfirmed friends moved the owner to %d", p)
		}
		last := 32
		for i, f := range friends[:4] {
			confirmFrom(t, env, f, "10.2.0."+strconv.Itoa(i+1))
			p := placeOf(t, env, "owner@example.com")
			if p >= last {
				t.Fatalf("friend %d confirmed: owner at %d, was %d", i, p, last)
			}
			last = p
		}
		if last != 1 {
			t.Fatalf("four confirmed friends put the owner at %d, want 1", last)
		}
		// Self-referrals stay uncredited even when confirmed: the owner's
		// mailbox with a +tag, and the owner's device.
		joinFrom(t, env, "Owner+2@example.com", code, "10.1.1.1")
		confirmFrom(t, env, "owner+2@example.com", "10.1.1.1")
		joinFrom(t, env, "samedevice@example.com", code, "10.9.9.9")
		confirmFrom(t, env, "samedevice@example.com", "10.9.9.9")
		// One mailbox written two ways is one friend.
		joinFrom(t, env, "x@googlemail.com", code, "10.3.0.1")
		confirmFrom(t, env, "x@googlemail.com", "10.3.0.1")
		joinFrom(t, env, "x@gmail.com.", code, "10.3.0.2")
		confirmFrom(t, env, "x@gmail.com.", "10.3.0.2")
		if n := countRows(t, env.DB, `SELECT COUNT(*) FROM waitlist_referrals WHERE credited = 1`); n != 5 {
			t.Fatalf("%d credited referrals, want 5 (four friends and x once)", n)
		}
	})
}

// A repeated sign-up from another device gets the answer a new sign-up
// gets (no place, no link, nothing that tells the address was there); the
// address's holder gets an e-mail with the place and the personal link.
func TestRepeatedSignupAnswersAsANewOneAndMailsTheOwner(t *testing.T) {
	t.Parallel()
	eachEngine(t, trustLoopback, func(t *testing.T, env *testEnv) {
		first := joinFrom(t, env, "owner@example.com", "", "10.9.9.9")
		_, code := confirmFrom(t, env, "owner@example.com", "10.9.9.9")
		fresh := joinFrom(t, env, "someone-new@example.com", "", "10.4.4.4")
		repeat := joinFrom(t, env, "OWNER@example.com", "", "10.4.4.4")
		want := map[string]any{"success": true, "message": "You're on the list!"}
		for name, body := range map[string]map[string]any{"first": first, "new": fresh, "repeat": repeat} {
			if !reflect.DeepEqual(body, want) {
				t.Fatalf("%s sign-up answered %v, want %v", name, body, want)
			}
		}
		sent, _ := mail.Recent(context.Background(), env.DB, "owner@example.com", 1)
		if len(sent) != 1 || sent[0].Subject != "You're already on the list: Salaula Upcycling Initiative" ||
			!strings.Contains(sent[0].Body, "number 1 in line") || !strings.Contains(sent[0].Body, env.Config.PublicURL+"/upcycling?ref="+code) {
			t.Fatalf("the owner's e-mail: %+v", sent)
		}
	})
}

// The console's waitlist and its CSV name the person whose personal link a
// sign-up came through, confirmed or not; a sign-up through no link names
// no one.
func TestWaitlistListAndExportNameThePersonalLinkASignupCameThrough(t *testing.T) {
	eachEngine(t, trustLoopback, func(t *testing.T, env *testEnv) {
		joinFrom(t, env, "owner@example.com", "", "10.9.9.1")
		_, code := confirmFrom(t, env, "owner@example.com", "10.9.9.1")
		joinFrom(t, env, "friend@example.com", code, "10.9.9.2")
		joinFrom(t, env, "stranger@example.com", "", "10.9.9.3")
		op := env.newOperator(t, "founder@example.com")

		res := env.admin(t, "GET", "/admin/v1/waitlist", nil, op)
		wantStatus(t, res, http.StatusOK)
		by := map[string]any{}
		for _, it := range decode(t, res)["items"].([]any) {
			item := it.(map[string]any)
			by[item["email"].(string)] = item["referredBy"]
		}
		want := map[string]any{"owner@example.com": "", "friend@example.com": "owner@example.com", "stranger@example.com": ""}
		if !reflect.DeepEqual(by, want) {
			t.Fatalf("referredBy %v, want %v", by, want)
		}

		res = env.admin(t, "GET", "/admin/v1/waitlist.csv?sort=email", nil, op)
		wantStatus(t, res, http.StatusOK)
		rows, err := csv.NewReader(res.Body).ReadAll()
		if err != nil {
			t.Fatal(err)
		}
		col := slices.Index(rows[0], "referred_by")
		if col < 0 || len(rows) != 4 {
			t.Fatalf("waitlist csv %q", rows)
		}
		for _, r := range rows[1:] {
			if r[col] != want[r[1]] {
				t.Errorf("%s: referred_by %q, want %q", r[1], r[col], want[r[1]])
			}
		}
	})
}
