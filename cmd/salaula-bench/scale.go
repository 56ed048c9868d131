package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"salaula/internal/console/consoletest"
	"salaula/internal/mfa"
	"salaula/internal/store"
	"salaula/internal/validate"
)

// The scale scenario (-scale N): each system on a new folder (PostgreSQL:
// a new database) is given N waitlist sign-ups straight into its database,
// salaula also N/10 contact messages and N/10 people, then the console's
// reads are timed over HTTP, one request at a time: salaula's
// /admin/v1/waitlist, /admin/v1/messages and /admin/v1/people as an
// operator, PocketBase's waitlist records list as its superuser with
// skipTotal=1 and the index on created a founder would add (it has no
// messages or people in the bench). It also reports the database's bytes
// per sign-up.

const (
	scaleOperator = "bench-founder@example.com"
	scaleTimings  = 20 // requests per figure; the figure is their median
)

// scaleCase is one row of the scale table: salaula's list, the request on
// each kind of system and the fewest items its answer must hold.
type scaleCase struct {
	name        string
	list        string // salaula's /admin/v1 list; PocketBase has only "waitlist"
	salaula, pb string // query strings; "cursor" on salaula: a page by cursor
	least       int
}

func scaleCases(n int) []scaleCase {
	deep := max(1, n/(2*console50))
	cases := []scaleCase{
		{name: "first page", list: "waitlist", salaula: "", pb: "", least: console50},
		{name: "deep page", list: "waitlist", salaula: "cursor", pb: fmt.Sprintf("page=%d", deep), least: console50},
		{name: "search, no match", list: "waitlist", salaula: "q=" + consoletest.AbsentDomain, pb: "filter=" + url.QueryEscape("email~'"+consoletest.AbsentDomain+"'"), least: 0},
		{name: "search, ~100 matches", list: "waitlist", salaula: "q=" + consoletest.HundredDomain, pb: "filter=" + url.QueryEscape("email~'"+consoletest.HundredDomain+"'"), least: min(console50, n/1000)},
		{name: "search, a tenth match", list: "waitlist", salaula: "q=" + consoletest.TenthDomain, pb: "filter=" + url.QueryEscape("email~'"+consoletest.TenthDomain+"'"), least: console50},
	}
	for _, list := range []string{"messages", "people"} {
		cases = append(cases,
			scaleCase{name: list + ": first page", list: list, least: min(console50, n/scaleInbox)},
			scaleCase{name: list + ": page by cursor", list: list, salaula: "cursor", least: min(console50, n/scaleInbox)},
			scaleCase{name: list + ": search, no match", list: list, salaula: "q=" + consoletest.AbsentDomain},
			scaleCase{name: list + ": search, ~100 matches", list: list, salaula: "q=" + consoletest.HundredDomain, least: min(console50, n/scaleInbox/1000)},
			scaleCase{name: list + ": search, a tenth match", list: list, salaula: "q=" + consoletest.TenthDomain, least: min(console50, n/scaleInbox/10)})
	}
	return cases
}

// console50 is the console's page size (console.DefaultLimit), which
// PocketBase is asked for too.
const console50 = 50

// scaleResult is one system's figures.
type scaleResult struct {
	bytesPerSignup float64
	emailBytes     float64 // of bytesPerSignup, the sent e-mail's record
	seed           time.Duration
	ms             map[string]float64 // case name -> median latency
	// salaula: `admin backup` of everything seeded (server stopped), its archive, and `admin restore` of it
	backup, restore time.Duration
	archiveBytes    int64
}

// runScale runs the scale scenario and returns its part of the table.
func runScale(o options, dir string, pg *postgres) (string, error) {
	systems, err := newSystems(o, dir, pg)
	if err != nil {
		return "", err
	}
	results := map[string]*scaleResult{}
	for _, s := range systems {
		r, err := s.scale(o)
		s.stop()
		if err == nil && s.kind == "salaula" {
			err = s.backupAndRestore(r, pg)
		}
		if err != nil {
			return "", fmt.Errorf("scale on %s: %w", s.name, err)
		}
		results[s.id] = r
	}
	return renderScale(o.scale, systems, results), nil
}

// scale seeds s with o.scale sign-ups and times the cases on it.
func (s *system) scale(o options) (*scaleResult, error) {
	ctx := context.Background()
	if err := s.prepare(o); err != nil {
		return nil, err
	}
	if _, err := s.start(); err != nil {
		return nil, err
	}
	if err := s.setUp(o.scripts); err != nil {
		return nil, err
	}
	if s.kind == "pocketbase" {
		if err := s.indexCreated(); err != nil {
			return nil, err
		}
	}
	s.stop()
	before, err := s.size(ctx)
	if err != nil {
		return nil, err
	}
	emailsBefore, err := s.emailBytes(ctx)
	if err != nil {
		return nil, err
	}
	began := time.Now()
	if err := s.seed(ctx, o.scale); err != nil {
		return nil, fmt.Errorf("seed: %w", err)
	}
	r := &scaleResult{seed: time.Since(began), ms: map[string]float64{}}
	after, err := s.size(ctx)
	if err != nil {
		return nil, err
	}
	r.bytesPerSignup = float64(after-before) / float64(o.scale)
	emailsAfter, err := s.emailBytes(ctx)
	if err != nil {
		return nil, err
	}
	r.emailBytes = float64(emailsAfter-emailsBefore) / float64(o.scale)
	fmt.Fprintf(os.Stderr, "scale %-22s %d sign-ups seeded in %s, %.0f bytes per sign-up\n", s.name, o.scale, r.seed.Round(time.Second), r.bytesPerSignup)
	if s.kind == "salaula" {
		if err := s.seedInbox(ctx, o.scale/scaleInbox); err != nil {
			return nil, fmt.Errorf("seed messages and people: %w", err)
		}
	}
	if _, err := s.start(); err != nil {
		return nil, err
	}
	// Salaula's tokens name the address they were issued at, which changed
	// with the restart: the operator signs in now.
	token := s.token
	if s.kind == "salaula" {
		if token, err = s.operatorToken(); err != nil {
			return nil, fmt.Errorf("operator session: %w", err)
		}
	}
	for _, c := range scaleCases(o.scale) {
		if s.kind == "pocketbase" && c.list != "waitlist" {
			continue
		}
		query := c.salaula
		path := "/admin/v1/" + c.list
		if s.kind == "pocketbase" {
			query, path = strings.TrimPrefix("sort=-created&perPage=50&skipTotal=1&"+c.pb, "&"), "/api/collections/waitlist/records"
		} else if query == "cursor" {
			if query, err = s.deepCursor(path, token); err != nil {
				return nil, err
			}
		}
		var times []float64
		for i := range scaleTimings + 1 {
			d, items, err := s.timedGet(path+"?"+query, token)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", c.name, err)
			}
			if items < c.least {
				return nil, fmt.Errorf("%s: %d items, want at least %d", c.name, items, c.least)
			}
			if i > 0 { // the first warms the caches
				times = append(times, float64(d.Microseconds())/1000)
			}
		}
		r.ms[c.name] = median(times)
		fmt.Fprintf(os.Stderr, "scale %-22s %-22s %8.1f ms\n", s.name, c.name, r.ms[c.name])
	}
	return r, nil
}

// backupAndRestore times `salaula admin backup` of s (stopped) into an
// archive, and `salaula admin restore` of that archive into a new folder
// (and, on PostgreSQL, a new database), as the operators' guide does them.
func (s *system) backupAndRestore(r *scaleResult, pg *postgres) error {
	archive := filepath.Join(filepath.Dir(s.dir), s.id+"-backup.tar.gz")
	restored := filepath.Join(filepath.Dir(s.dir), s.id+"-restored")
	defer os.Remove(archive)
	defer os.RemoveAll(restored)
	env := append(os.Environ(), "SALAULA_JWT_SECRET="+benchSecret, "DATABASE_URL="+s.pgURL)
	began := time.Now()
	if out, err := s.admin(env, "backup", "--data", s.dir, "--out", archive); err != nil {
		return fmt.Errorf("admin backup: %w\n%s", err, out)
	}
	r.backup = time.Since(began)
	st, err := os.Stat(archive)
	if err != nil {
		return err
	}
	r.archiveBytes = st.Size()
	if s.pgURL != "" {
		target, err := pg.create()
		if err != nil {
			return err
		}
		env = append(os.Environ(), "SALAULA_JWT_SECRET="+benchSecret, "DATABASE_URL="+target)
	}
	began = time.Now()
	if out, err := s.admin(env, "restore", "--from", archive, "--data", restored); err != nil {
		return fmt.Errorf("admin restore: %w\n%s", err, out)
	}
	r.restore = time.Since(began)
	fmt.Fprintf(os.Stderr, "scale %-22s backup %s (%.0f MB), restore %s\n", s.name, r.backup.Round(100*time.Millisecond), float64(r.archiveBytes)/1e6, r.restore.Round(100*time.Millisecond))
	return nil
}

// admin runs `salaula admin args...` with env and returns what it printed.
func (s *system) admin(env []string, args ...string) ([]byte, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, s.bin, append([]string{"admin"}, args...)...)
	cmd.Env = env
	return cmd.CombinedOutput()
}

// operatorToken signs the operator up, makes it one with `salaula admin
// grant` and passes two-step sign-in: the console's access token.
func (s *system) operatorToken() (string, error) {
	var sess struct {
		AccessToken string `json:"access_token"`
	}
	b, err := s.call("POST", "/auth/v1/signup", map[string]string{"email": scaleOperator, "password": benchPassword}, "")
	if err == nil {
		err = json.Unmarshal(b, &sess)
	}
	if err != nil {
		return "", err
	}
	grant := exec.Command(s.bin, "admin", "grant", scaleOperator, "--data", s.dir)
	grant.Env = s.cmd.Env
	if out, err := grant.CombinedOutput(); err != nil {
		return "", fmt.Errorf("admin grant: %v: %s", err, out)
	}
	bearer := "Bearer " + sess.AccessToken
	var factor struct {
		ID   string
		TOTP struct{ Secret string }
	}
	var challenge struct{ ID string }
	if b, err = s.call("POST", "/auth/v1/factors", map[string]string{"factor_type": "totp"}, bearer); err == nil {
		err = json.Unmarshal(b, &factor)
	}
	if err == nil {
		if b, err = s.call("POST", "/auth/v1/factors/"+factor.ID+"/challenge", map[string]string{}, bearer); err == nil {
			err = json.Unmarshal(b, &challenge)
		}
	}
	var code string
	if err == nil {
		code, err = mfa.Code(factor.TOTP.Secret, mfa.Step(time.Now()))
	}
	if err == nil {
		if b, err = s.call("POST", "/auth/v1/factors/"+factor.ID+"/verify", map[string]string{"challenge_id": challenge.ID, "code": code}, bearer); err == nil {
			err = json.Unmarshal(b, &sess)
		}
	}
	return "Bearer " + sess.AccessToken, err
}

// indexCreated gives PocketBase's waitlist the created and updated fields
// a collection made in its dashboard has, and the index on created a
// founder would add for a list sorted by it.
func (s *system) indexCreated() error {
	b, err := s.call("GET", "/api/collections/waitlist", nil, s.token)
	if err != nil {
		return err
	}
	var c map[string]any
	if err := json.Unmarshal(b, &c); err != nil {
		return err
	}
	fields, _ := c["fields"].([]any)
	has := func(name string) bool {
		return slices.ContainsFunc(fields, func(f any) bool { m, _ := f.(map[string]any); return m["name"] == name })
	}
	if !has("created") {
		fields = append(fields, map[string]any{"name": "created", "type": "autodate", "onCreate": true})
	}
	if !has("updated") {
		fields = append(fields, map[string]any{"name": "updated", "type": "autodate", "onCreate": true, "onUpdate": true})
	}
	indexes, _ := c["indexes"].([]any)
	indexes = append(indexes, "CREATE INDEX idx_waitlist_created ON waitlist (created)")
	_, err = s.call("PATCH", "/api/collections/waitlist", map[string]any{"fields": fields, "indexes": indexes}, s.token)
	return err
}

// size is the system's database size in bytes (its server stopped).
func (s *system) size(ctx context.Context) (int64, error) {
	if s.kind == "salaula" {
		db, err := store.Open(ctx, s.pgURL, s.dir)
		if err != nil {
			return 0, err
		}
		defer db.Close()
		return db.Size(ctx)
	}
	db, err := s.database()
	if err != nil {
		return 0, err
	}
	defer db.Close()
	var pages, size int64
	err = db.QueryRowContext(ctx, `SELECT (SELECT page_count FROM pragma_page_count()) - (SELECT freelist_count FROM pragma_freelist_count()),
		(SELECT page_size FROM pragma_page_size())`).Scan(&pages, &size)
	return pages * size, err
}

// emailBytes is what the stopped system's e-mail records take (the
// outbox's and the sent e-mails' tables and indexes); 0 for PocketBase,
// which keeps no e-mail.
func (s *system) emailBytes(ctx context.Context) (int64, error) {
	if s.kind != "salaula" {
		return 0, nil
	}
	db, err := store.Open(ctx, s.pgURL, s.dir)
	if err != nil {
		return 0, err
	}
	defer db.Close()
	var total int64
	for _, table := range []string{"outbox_emails", "sent_emails"} {
		n, err := db.TableBytes(ctx, table)
		if err != nil {
			return 0, err
		}
		total += n
	}
	return total, nil
}

// seed puts n sign-ups straight into the stopped system's database:
// salaula's through its store as consoletest.Scale makes them (each with
// its sent confirmation e-mail, body cleared), PocketBase's as rows of its
// waitlist table at the same addresses and times.
func (s *system) seed(ctx context.Context, n int) error {
	if s.kind == "salaula" {
		db, err := store.Open(ctx, s.pgURL, s.dir)
		if err != nil {
			return err
		}
		defer db.Close()
		return consoletest.Scale(ctx, db, n)
	}
	db, err := s.database()
	if err != nil {
		return err
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	programs := validate.Programs
	paths := []string{"/wardrobeclearance", "/impact"}
	for start := 0; start < n; start += 10_000 {
		tx, err := db.BeginTx(ctx, nil)
		if err != nil {
			return err
		}
		ins, err := tx.PrepareContext(ctx, `INSERT INTO waitlist (id, email, program, page_path, referrer, created, updated) VALUES (?, ?, ?, ?, ?, ?, ?)`)
		if err != nil {
			tx.Rollback()
			return err
		}
		for i := start; i < min(start+10_000, n); i++ {
			at := consoletest.SeedStart.Add(time.Duration(i-i%3/2) * time.Second).UTC().Format("2006-01-02 15:04:05.000Z")
			if _, err := ins.ExecContext(ctx, fmt.Sprintf("s%014d", i), consoletest.ScaleEmail(i, n), programs[i%2], paths[i%2], "", at, at); err != nil {
				tx.Rollback()
				return err
			}
		}
		ins.Close()
		if err := tx.Commit(); err != nil {
			return err
		}
	}
	return nil
}

// scaleInbox is how many sign-ups there are to a contact message and to
// an account in salaula's scale scenario.
const scaleInbox = 10

// seedInbox puts n contact messages and n people (accounts, nine in ten
// with a profile) straight into salaula's stopped database, as
// consoletest.ScaleMessages and consoletest.ScalePeople make them.
func (s *system) seedInbox(ctx context.Context, n int) error {
	db, err := store.Open(ctx, s.pgURL, s.dir)
	if err != nil {
		return err
	}
	defer db.Close()
	if err := consoletest.ScaleMessages(ctx, db, n); err != nil {
		return err
	}
	return consoletest.ScalePeople(ctx, db, n)
}

// deepCursor walks one of salaula's lists three pages in and returns the query
// of the next page: a page by cursor costs the same at any depth.
func (s *system) deepCursor(path, token string) (string, error) {
	query := ""
	for range 3 {
		b, err := s.call("GET", path+"?"+query, nil, token)
		if err != nil {
			return "", err
		}
		var page struct{ NextCursor *string }
		if err := json.Unmarshal(b, &page); err != nil || page.NextCursor == nil {
			return "", fmt.Errorf("no next cursor: %v %s", err, b)
		}
		query = "cursor=" + url.QueryEscape(*page.NextCursor)
	}
	return query, nil
}

// timedGet times one GET and counts the items of its answer (salaula's
// "items", PocketBase's "items" too).
func (s *system) timedGet(pathQuery, token string) (time.Duration, int, error) {
	req, err := http.NewRequest("GET", "http://"+s.addr+pathQuery, nil)
	if err != nil {
		return 0, 0, err
	}
	req.Header.Set("Authorization", token)
	began := time.Now()
	res, err := client.Do(req)
	if err != nil {
		return 0, 0, err
	}
	b, err := io.ReadAll(res.Body)
	res.Body.Close()
	d := time.Since(began)
	if err != nil {
		return 0, 0, err
	}
	if res.StatusCode != http.StatusOK {
		return 0, 0, fmt.Errorf("GET %s: %d %s", pathQuery, res.StatusCode, b)
	}
	var page struct{ Items []json.RawMessage }
	if err := json.Unmarshal(b, &page); err != nil {
		return 0, 0, fmt.Errorf("GET %s: %w", pathQuery, err)
	}
	return d, len(page.Items), nil
}

// renderScale is the scale scenario's part of the table.
func renderScale(n int, systems []*system, results map[string]*scaleResult) string {
	var b strings.Builder
	fmt.Fprintf(&b, "\nThe console at %d waitlist sign-ups (`-scale %d`; `SALAULA_BENCH_SIGNUPS=%d make bench`). "+
		"Each system on a new folder or database is given the sign-ups straight into its database "+
		"(salaula through its store, each with its confirmation e-mail sent and its body cleared as the retention sweep leaves it; "+
		"PocketBase as rows of its waitlist table, its server stopped), then each request is made %d times, one at a time after one that warms the caches, "+
		"and the median is shown: salaula's `GET /admin/v1/waitlist` as an operator (a deep page: by cursor, which costs the same at any depth; "+
		"search: prefix of the address or of its domain), PocketBase's `GET /api/collections/waitlist/records?sort=-created&perPage=50&skipTotal=1` as its superuser "+
		"with an index on created (a deep page: the middle page by `page=`; search: `filter=email~'…'`, any part of the address). "+
		"The messages and people rows are salaula's `GET /admin/v1/messages` and `GET /admin/v1/people` with %d contact messages and %d people "+
		"(accounts, nine in ten with a profile) seeded after the sign-ups at addresses of the same domains "+
		"(search: prefix of the address, of its domain or of a name); PocketBase has no such collections in the bench (-). "+
		"Bytes per sign-up: the database's growth (pages in use; PostgreSQL: `pg_database_size`) over the sign-ups, measured before the messages and people; "+
		"once the e-mails' records are gone (`SALAULA_EMAIL_RETENTION` after sending): the same less the growth of the e-mails' tables (`outbox_emails` and `sent_emails` with their indexes: SQLite's `dbstat`, "+
		"PostgreSQL's `pg_total_relation_size`).\n\n",
		n, n, n, scaleTimings, n/scaleInbox, n/scaleInbox)
	b.WriteString("| request |")
	for _, s := range systems {
		b.WriteString(" " + s.name + " |")
	}
	b.WriteString("\n|---|" + strings.Repeat("---:|", len(systems)) + "\n")
	for _, c := range scaleCases(n) {
		fmt.Fprintf(&b, "| %s |", c.name)
		for _, s := range systems {
			if ms, ok := results[s.id].ms[c.name]; ok {
				fmt.Fprintf(&b, " %.1f ms |", ms)
			} else {
				b.WriteString(" - |")
			}
		}
		b.WriteString("\n")
	}
	b.WriteString("| database bytes per sign-up |")
	for _, s := range systems {
		fmt.Fprintf(&b, " %.0f |", results[s.id].bytesPerSignup)
	}
	b.WriteString("\n| database bytes per sign-up, its e-mail's record gone |")
	for _, s := range systems {
		fmt.Fprintf(&b, " %.0f |", results[s.id].bytesPerSignup-results[s.id].emailBytes)
	}
	for _, row := range []struct {
		name  string
		value func(r *scaleResult) string
	}{
		{"`admin backup` (server stopped): time", func(r *scaleResult) string { return fmt.Sprintf("%.1f s", r.backup.Seconds()) }},
		{"`admin backup`: archive size", func(r *scaleResult) string { return fmt.Sprintf("%.1f MB", float64(r.archiveBytes)/1e6) }},
		{"`admin restore` into a new folder or database: time", func(r *scaleResult) string { return fmt.Sprintf("%.1f s", r.restore.Seconds()) }},
	} {
		fmt.Fprintf(&b, "\n| %s |", row.name)
		for _, s := range systems {
			if s.kind != "salaula" {
				b.WriteString(" - |")
				continue
			}
			fmt.Fprintf(&b, " %s |", row.value(results[s.id]))
		}
	}
	b.WriteString("\n")
	return b.String()
}
