package server

import (
	"net/http"
	"testing"
	"time"

	"salaula/internal/media"
	"salaula/internal/store"
)

func TestOnboardNewUserSavesTheProfileAndGetProfileMeReturnsIt(t *testing.T) {
	eachEngine(t, nil, func(t *testing.T, env *testEnv) {
		u := newUser(t, env, "chipo@example.com")
		p1 := env.mustUpload(t, u, u.ID+"/photos/1700000000-front.jpg", testJPEG(t, 40, 60))
		p2 := env.mustUpload(t, u, u.ID+"/photos/1700000001-side.png", testPNG(t))
		p3 := env.mustUpload(t, u, u.ID+"/photos/1700000002-back.webp", testWebP)

		if got := env.profileOf(t, u); got["role"] != nil {
			t.Fatalf("before onboarding role = %v, want null", got["role"])
		}
		res := env.do(t, http.MethodPost, "/functions/v1/onboard-new-user", validProfile(u, p1, p2, p3), u.auth(env))
		wantStatus(t, res, http.StatusOK)
		body := decode(t, res)
		if body["message"] != "Profile created successfully!" {
			t.Fatalf("answer = %v", body)
		}
		got := env.profileOf(t, u)
		want := map[string]any{
			"user_id": u.ID, "role": "buyer", "full_name": "Chipo Mwale", "location": "Kabulonga, Lusaka",
			"age": 24.0, "phone_number": "+260971234567", "gender": "Female", "height": "165 cm", "waist_size": "28",
			"style_description": "Bright colours and vintage denim", "inspiration": "Historical eras e.g. 90s",
			"wants_clearance_program": true, "profile_pic_url": p1, "business_name": "",
		}
		for k, v := range want {
			if !jsonEqual(got[k], v) {
				t.Errorf("profile %s = %v, want %v", k, got[k], v)
			}
		}
		if !jsonEqual(got["body_photo_urls"], []string{p1, p2, p3}) || !jsonEqual(got["clothing_aesthetics"], []string{"STREET WEAR", "DENIM WEAR"}) {
			t.Fatalf("lists = %v / %v", got["body_photo_urls"], got["clothing_aesthetics"])
		}
	})
}

func TestOnboardingNeedsASessionAndTheCallersOwnUserID(t *testing.T) {
	eachEngine(t, nil, func(t *testing.T, env *testEnv) {
		u := newUser(t, env, "a@example.com")
		other := newUser(t, env, "b@example.com")
		anon := map[string]string{"Authorization": "Bearer " + env.anonKey(t), "apikey": env.anonKey(t)}
		for _, c := range []struct {
			fn, msg string
			body    map[string]any
		}{
			{"onboard-new-user", "Could not get user session. Please log in again.", validProfile(u)},
			{"onboard-seller", "You must be logged in.", validSeller(u)},
		} {
			for name, h := range map[string]map[string]string{
				"no token": {"apikey": env.anonKey(t)}, "anon key": anon,
				"forged": {"Authorization": "Bearer " + u.Token + "x"},
			} {
				res := env.do(t, http.MethodPost, "/functions/v1/"+c.fn, c.body, h)
				wantStatus(t, res, http.StatusUnauthorized)
				if got := decode(t, res)["error"]; got != c.msg {
					t.Errorf("%s %s: error = %v, want %q", c.fn, name, got, c.msg)
				}
			}
			res := env.do(t, http.MethodPost, "/functions/v1/"+c.fn, c.body, other.auth(env))
			wantStatus(t, res, http.StatusForbidden)
		}
		// A signed-out session's token stops working.
		if _, err := env.DB.Exec(t.Context(), `UPDATE sessions SET revoked_at = ? WHERE user_id = ?`, store.Now(), u.ID); err != nil {
			t.Fatal(err)
		}
		res := env.do(t, http.MethodPost, "/functions/v1/onboard-new-user", validProfile(u), u.auth(env))
		wantStatus(t, res, http.StatusUnauthorized)
		if _, err := env.DB.ProfileByUser(t.Context(), u.ID); err == nil {
			t.Fatal("a refused call stored a profile")
		}
	})
}

func TestOnboardingRulesAnswer400WithTheSpecsMessages(t *testing.T) {
	eachEngine(t, nil, func(t *testing.T, env *testEnv) {
		u := newUser(t, env, "rules@example.com")
		photo := env.mustUpload(t, u, u.ID+"/photos/a.jpg", testJPEG(t, 8, 8))
		cases := []struct {
			fn     string
			change map[string]any
			field  string
			msg    string
		}{
			{"onboard-new-user", map[string]any{"full_name": "   "}, "full_name", "Full name is required"},
			{"onboard-new-user", map[string]any{"location": ""}, "location", "Location is required"},
			{"onboard-new-user", map[string]any{"age": nil}, "age", "Age is required"},
			{"onboard-new-user", map[string]any{"age": 7}, "age", "Age must be between 13 and 120"},
			{"onboard-new-user", map[string]any{"age": 24.5}, "age", "Please enter your age as a whole number"},
			{"onboard-new-user", map[string]any{"phone_number": ""}, "phone_number", "Phone number is required"},
			{"onboard-new-user", map[string]any{"phone_number": "+260 11 123 4567"}, "phone_number", "Please enter a valid Zambian phone number, e.g. +260 97 123 4567"},
			{"onboard-new-user", map[string]any{"style_description": " "}, "style_description", "Description is required"},
			{"onboard-new-user", map[string]any{"height": ""}, "height", "Height is required"},
			{"onboard-new-user", map[string]any{"waist_size": ""}, "waist_size", "Waist size is required"},
			{"onboard-new-user", map[string]any{"gender": ""}, "gender", "Gender is required"},
			{"onboard-new-user", map[string]any{"gender": "robot"}, "gender", "Please select Male or Female"},
			{"onboard-new-user", map[string]any{"clothing_aesthetics": []string{}}, "clothing_aesthetics", "Please select at least one clothing aesthetic"},
			{"onboard-new-user", map[string]any{"clothing_aesthetics": []string{"PYJAMAS"}}, "clothing_aesthetics", "Please choose clothing aesthetics from the list"},
			{"onboard-new-user", map[string]any{"inspiration": "Moon"}, "inspiration", "Please choose an inspiration from the list"},
			{"onboard-new-user", map[string]any{"role": "admin"}, "role", "Please choose a role: buyer, seller or buyer_and_seller"},
			{"onboard-new-user", map[string]any{"body_photo_urls": []string{photo, photo + "1", photo + "2", photo + "3"}}, "body_photo_urls", "You can add at most 3 photos"},
			{"onboard-new-user", map[string]any{"profile_pic_url": "https://evil.example/x.jpg"}, "profile_pic_url", "The profile picture must be one of your uploaded photos"},
			{"onboard-new-user", map[string]any{"body_photo_urls": []string{"https://evil.example/x.jpg"}}, "body_photo_urls", "Each photo must be an image you uploaded to your own folder"},
			{"onboard-new-user", map[string]any{"body_photo_urls": []string{photo + "-missing"}, "profile_pic_url": nil}, "body_photo_urls", "Image " + u.ID + "/photos/a.jpg-missing was not found: please upload it again"},
			{"onboard-seller", map[string]any{"business_name": ""}, "business_name", "Business name is required"},
			{"onboard-seller", map[string]any{"gender": ""}, "gender", "Please select your gender"},
			{"onboard-seller", map[string]any{"business_mode": "Mall"}, "business_mode", "Please select your business mode"},
			{"onboard-seller", map[string]any{"logo_urls": []string{}}, "logo_urls", "Please upload at least one logo or brand image"},
			{"onboard-seller", map[string]any{"logo_urls": []string{photo, photo + "1", photo + "2"}}, "logo_urls", "You can add at most 2 logo or brand images"},
			{"onboard-seller", map[string]any{"full_name": ""}, "full_name", "Full name is required"},
			{"onboard-seller", map[string]any{"age": ""}, "age", "Age is required"},
		}
		for _, c := range cases {
			var body map[string]any
			if c.fn == "onboard-seller" {
				body = validSeller(u, photo)
			} else {
				body = validProfile(u, photo)
			}
			for k, v := range c.change {
				body[k] = v
			}
			res := env.do(t, http.MethodPost, "/functions/v1/"+c.fn, body, u.auth(env))
			wantStatus(t, res, http.StatusBadRequest)
			got := decode(t, res)
			fields, _ := got["fields"].(map[string]any)
			if fields[c.field] != c.msg || got["error"] != c.msg {
				t.Errorf("%s %v: answer %v, want %s: %q", c.fn, c.change, got, c.field, c.msg)
			}
		}
		if _, err := env.DB.ProfileByUser(t.Context(), u.ID); err == nil {
			t.Fatal("refused calls stored a profile")
		}
	})
}

func TestOnboardingRefusesMalformedBodiesWith4xx(t *testing.T) {
	eachEngine(t, nil, func(t *testing.T, env *testEnv) {
		u := newUser(t, env, "bad@example.com")
		for _, fn := range []string{"onboard-new-user", "onboard-seller"} {
			for body, status := range map[string]int{
				"":                                  http.StatusBadRequest,
				"{":                                 http.StatusBadRequest,
				"[]":                                http.StatusBadRequest,
				`{"age": {"x": 1}}`:                 http.StatusBadRequest,
				`{"full_name": 5}`:                  http.StatusBadRequest,
				`{"logo_urls": "x"}`:                http.StatusBadRequest,
				`{"body_photo_urls": [1]}`:          http.StatusBadRequest,
				`{"wants_clearance_program": "no"}`: http.StatusBadRequest,
				`{"userId": "` + u.ID + `"} {}`:     http.StatusBadRequest,
			} {
				res := env.do(t, http.MethodPost, "/functions/v1/"+fn, body, u.auth(env))
				if res.StatusCode != status {
					t.Errorf("%s %q: status %d, want %d", fn, body, res.StatusCode, status)
				}
				if m := decode(t, res); m["error"] == "" || m["error"] == nil {
					t.Errorf("%s %q: no error message: %v", fn, body, m)
				}
			}
		}
	})
}

func TestRepeatSubmitUpdatesAndCombinedRoleKeepsBothHalves(t *testing.T) {
	eachEngine(t, nil, func(t *testing.T, env *testEnv) {
		u := newUser(t, env, "both@example.com")
		photo := env.mustUpload(t, u, u.ID+"/photos/1.jpg", testJPEG(t, 8, 8))
		logo := env.mustUpload(t, u, u.ID+"/logos/1-logo.png", testPNG(t))

		profile := validProfile(u, photo)
		profile["role"] = "buyer_and_seller"
		seller := validSeller(u, logo)
		seller["role"] = "buyer_and_seller"
		seller["gender"] = "female"
		seller["full_name"] = "Chipo Mwale"
		seller["registration_number"] = " PACRA-12345 "
		wantStatus(t, env.do(t, http.MethodPost, "/functions/v1/onboard-new-user", profile, u.auth(env)), http.StatusOK)
		if got := env.profileOf(t, u)["role"]; got != "buyer" {
			t.Fatalf("after the buyer half role = %v, want buyer", got)
		}
		wantStatus(t, env.do(t, http.MethodPost, "/functions/v1/onboard-seller", seller, u.auth(env)), http.StatusOK)
		got := env.profileOf(t, u)
		if got["role"] != "buyer_and_seller" || got["business_name"] != "Mwila Thrift" || got["height"] != "165 cm" ||
			got["registration_number"] != "PACRA-12345" || !jsonEqual(got["logo_urls"], []string{logo}) ||
			!jsonEqual(got["body_photo_urls"], []string{photo}) || got["gender"] != "Female" {
			t.Fatalf("combined profile = %v", got)
		}
		// Submitting the buyer half again updates it, keeps the seller half and the role.
		profile["height"] = "170 cm"
		profile["clothing_aesthetics"] = []string{"FORMAL WEAR"}
		wantStatus(t, env.do(t, http.MethodPost, "/functions/v1/onboard-new-user", profile, u.auth(env)), http.StatusOK)
		got = env.profileOf(t, u)
		if got["role"] != "buyer_and_seller" || got["height"] != "170 cm" || got["business_name"] != "Mwila Thrift" ||
			!jsonEqual(got["clothing_aesthetics"], []string{"FORMAL WEAR"}) {
			t.Fatalf("after repeat = %v", got)
		}
		var n int
		if err := env.DB.QueryRow(t.Context(), `SELECT COUNT(*) FROM profiles WHERE user_id = ?`, u.ID).Scan(&n); err != nil || n != 1 {
			t.Fatalf("profiles of the user = %d, %v; want 1", n, err)
		}

		// A seller who later completes the buyer half also becomes buyer_and_seller.
		s := newUser(t, env, "seller-first@example.com")
		sl := env.mustUpload(t, s, s.ID+"/logos/l.png", testPNG(t))
		wantStatus(t, env.do(t, http.MethodPost, "/functions/v1/onboard-seller", validSeller(s, sl), s.auth(env)), http.StatusOK)
		if got := env.profileOf(t, s)["role"]; got != "seller" {
			t.Fatalf("seller role = %v", got)
		}
		wantStatus(t, env.do(t, http.MethodPost, "/functions/v1/onboard-new-user", validProfile(s), s.auth(env)), http.StatusOK)
		if got := env.profileOf(t, s); got["role"] != "buyer_and_seller" || got["profile_pic_url"] != nil {
			t.Fatalf("seller then buyer = %v", got)
		}
	})
}

func TestReplacedProfileImagesAreDeleted(t *testing.T) {
	eachEngine(t, nil, func(t *testing.T, env *testEnv) {
		u := newUser(t, env, "cleanup@example.com")
		old1 := env.mustUpload(t, u, u.ID+"/photos/old1.jpg", testJPEG(t, 8, 8))
		old2 := env.mustUpload(t, u, u.ID+"/photos/old2.jpg", testJPEG(t, 9, 9))
		logo := env.mustUpload(t, u, u.ID+"/logos/logo.png", testPNG(t))
		newer := env.mustUpload(t, u, u.ID+"/photos/new.jpg", testJPEG(t, 10, 10))
		wantStatus(t, env.do(t, http.MethodPost, "/functions/v1/onboard-new-user", validProfile(u, old1, old2), u.auth(env)), http.StatusOK)
		wantStatus(t, env.do(t, http.MethodPost, "/functions/v1/onboard-seller", validSeller(u, logo), u.auth(env)), http.StatusOK)
		// Replace old1 by the new photo, keep old2.
		wantStatus(t, env.do(t, http.MethodPost, "/functions/v1/onboard-new-user", validProfile(u, old2, newer), u.auth(env)), http.StatusOK)
		for url, want := range map[string]int{old1: 404, old2: 200, newer: 200, logo: 200} {
			res, _ := env.get(t, url[len(env.URL):], nil)
			if res.StatusCode != want {
				t.Errorf("GET %s: %d, want %d", url, res.StatusCode, want)
			}
		}
		objs, err := env.DB.MediaObjectsOf(t.Context(), u.ID)
		if err != nil || len(objs) != 3 {
			t.Fatalf("media records = %v, %v; want 3", objs, err)
		}
		// Removing every photo deletes them too; the logo stays.
		wantStatus(t, env.do(t, http.MethodPost, "/functions/v1/onboard-new-user", validProfile(u), u.auth(env)), http.StatusOK)
		for url, want := range map[string]int{old2: 404, newer: 404, logo: 200} {
			if _, err := env.Media.Stat(t.Context(), media.Key(media.Bucket, url[len(env.URL+media.PublicURLPrefix+media.Bucket+"/"):])); (err == nil) != (want == 200) {
				t.Errorf("%s stored = %v, want %d", url, err == nil, want)
			}
		}
	})
}

func TestAbandonedUploadsAreDeletedOnTheNextSave(t *testing.T) {
	eachEngine(t, nil, func(t *testing.T, env *testEnv) {
		u := newUser(t, env, "abandoned@example.com")
		other := newUser(t, env, "neighbour@example.com")
		old := env.mustUpload(t, u, u.ID+"/photos/1-failed-attempt.jpg", testJPEG(t, 8, 8))
		fresh := env.mustUpload(t, u, u.ID+"/logos/2-logo-for-the-seller-half.png", testPNG(t))
		theirs := env.mustUpload(t, other, other.ID+"/photos/old.png", testPNG(t))
		used := env.mustUpload(t, u, u.ID+"/photos/3-used.jpg", testJPEG(t, 9, 9))
		// Two uploads are two hours old: one of them is in the profile.
		twoHoursAgo := store.Now().Add(-2 * time.Hour)
		for _, k := range []string{u.ID + "/photos/1-failed-attempt.jpg", u.ID + "/photos/3-used.jpg", other.ID + "/photos/old.png"} {
			if _, err := env.DB.Exec(t.Context(), `UPDATE media_objects SET updated_at = ? WHERE object_key = ?`, twoHoursAgo, "user-media/"+k); err != nil {
				t.Fatal(err)
			}
		}
		wantStatus(t, env.do(t, http.MethodPost, "/functions/v1/onboard-new-user", validProfile(u, used), u.auth(env)), http.StatusOK)
		for url, want := range map[string]int{old: 404, fresh: 200, theirs: 200, used: 200} {
			if res, _ := env.get(t, url[len(env.URL):], nil); res.StatusCode != want {
				t.Errorf("GET %s: %d, want %d", url, res.StatusCode, want)
			}
		}
	})
}
