package main

import (
	"bytes"
	"context"
	"encoding/csv"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"salaula/internal/store/storetest"
)

// post sends a JSON body to the running server and wants 200.
func post(t *testing.T, addr, path, body string) {
	t.Helper()
	res, err := http.Post("http://"+addr+path, "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		b, _ := io.ReadAll(res.Body)
		t.Fatalf("POST %s: %d %s", path, res.StatusCode, b)
	}
}

// exportRows runs `salaula admin export` and parses its CSV.
func exportRows(t *testing.T, env map[string]string, args ...string) [][]string {
	t.Helper()
	var out bytes.Buffer
	if err := run(context.Background(), append([]string{"salaula", "admin", "export"}, args...), envOf(env), &out, io.Discard); err != nil {
		t.Fatalf("export %v: %v", args, err)
	}
	rows, err := csv.NewReader(&out).ReadAll()
	if err != nil {
		t.Fatalf("export %v is not CSV: %v\n%s", args, err, out.String())
	}
	return rows
}

func TestExportWaitlistAndMessagesWhileTheServerRuns(t *testing.T) {
	for _, engine := range storetest.Engines {
		t.Run(string(engine), func(t *testing.T) {
			dataDir, env := t.TempDir(), engineEnv(t, engine)
			addr, cancel, done, _ := startServe(t, env, "--data", dataDir)
			defer func() { cancel(); <-done }()

			post(t, addr, "/functions/v1/contact-form-submit", `{"firstName":"=HYPERLINK(\"http://evil\")","lastName":"Banda",
				"email":" Ruth@Example.com","phoneNumber":"+260 966 000111","subject":"careers",
				"message":"Hello, are you hiring, \"designers\", in Lusaka?\nThanks"}`)
			post(t, addr, "/functions/v1/waitlist-signup", `{"email":"ruth@example.com","programName":"Upcycling Initiative",
				"pagePath":"/impact","referrer":"https://l.facebook.com/","utm_source":"facebook","utm_medium":"social",
				"utm_campaign":"launch","utm_term":"","utm_content":"@story"}`)
			post(t, addr, "/functions/v1/waitlist-signup", `{"email":"mary@example.com","programName":"Wardrobe Clearance Program","pagePath":"/wardrobeclearance"}`)

			msgs := exportRows(t, env, "messages", "--data", dataDir)
			if strings.Join(msgs[0], ",") != "created_at,first_name,last_name,email,phone_number,subject,message,status,note,handled_at" || len(msgs) != 2 {
				t.Fatalf("messages export: %q", msgs)
			}
			m := msgs[1]
			if _, err := time.Parse(time.RFC3339, m[0]); err != nil || !strings.HasSuffix(m[0], "Z") {
				t.Fatalf("created_at %q", m[0])
			}
			if m[1] != `'=HYPERLINK("http://evil")` || m[3] != "ruth@example.com" || m[4] != "'+260966000111" || m[5] != "careers" ||
				m[6] != "Hello, are you hiring, \"designers\", in Lusaka?\nThanks" {
				t.Fatalf("message row %q", m)
			}

			all := exportRows(t, env, "waitlist", "--data", dataDir)
			if strings.Join(all[0], ",") != "created_at,email,program,page_path,referrer,utm_source,utm_medium,utm_campaign,utm_term,utm_content,unsubscribed_at,referred_by" || len(all) != 3 {
				t.Fatalf("waitlist export: %q", all)
			}
			if r := all[1]; r[1] != "ruth@example.com" || r[2] != "Upcycling Initiative" || r[3] != "/impact" || r[4] != "https://l.facebook.com/" ||
				r[5] != "facebook" || r[6] != "social" || r[7] != "launch" || r[9] != "'@story" || r[10] != "" {
				t.Fatalf("waitlist row %q", r)
			}
			one := exportRows(t, env, "waitlist", "--data", dataDir, "--program", "wardrobe clearance program")
			if len(one) != 2 || one[1][1] != "mary@example.com" || one[1][2] != "Wardrobe Clearance Program" {
				t.Fatalf("filtered export: %q", one)
			}

			var out bytes.Buffer
			err := run(context.Background(), []string{"salaula", "admin", "export", "waitlist", "--data", dataDir, "--program", "Free Shoes"}, envOf(env), &out, io.Discard)
			if err == nil || !strings.Contains(err.Error(), `Unknown program "Free Shoes"`) || !strings.Contains(err.Error(), "Upcycling Initiative") {
				t.Fatalf("bad --program: err = %v", err)
			}
			if out.Len() != 0 {
				t.Fatalf("bad --program wrote %q", out.String())
			}
		})
	}
}

func TestExportOfAnEmptyDatabaseIsJustTheHeader(t *testing.T) {
	for _, engine := range storetest.Engines {
		t.Run(string(engine), func(t *testing.T) {
			dataDir, env := t.TempDir(), engineEnv(t, engine)
			for _, what := range []string{"waitlist", "messages"} {
				if rows := exportRows(t, env, what, "--data", dataDir); len(rows) != 1 {
					t.Fatalf("%s: %q", what, rows)
				}
			}
		})
	}
}
