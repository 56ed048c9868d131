// Package config reads the settings of `salaula serve` and the other
// subcommands from flags and environment variables (a flag wins over the
// environment), and creates the server's signing secret on first start.
package config

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"salaula/internal/clientip"
	"salaula/internal/password"
	"salaula/internal/realtime"
)

// Config is every setting of the server. Each field names its flag and
// environment variable; README.md lists them all.
type Config struct {
	HTTPAddr        string        // --http, SALAULA_HTTP: listen address (":8080")
	DataDir         string        // --data, SALAULA_DATA: folder for SQLite, media and the secret ("./data")
	DatabaseURL     string        // DATABASE_URL: postgres://... switches the store to PostgreSQL
	PublicURL       string        // --public-url, SALAULA_PUBLIC_URL: base URL the browser reaches (default http://localhost:PORT)
	PublicURLSet    bool          // PublicURL was given; otherwise /config.json uses the request's own host
	JWTSecret       string        // SALAULA_JWT_SECRET: shared HS256 signing secret; unset: ES256 keys stored sealed in the database, and a server secret generated into DATA/jwt-secret
	AccessTokenTTL  time.Duration // SALAULA_ACCESS_TOKEN_TTL: access-token lifetime (1h)
	ConfirmEmail    bool          // SALAULA_CONFIRM_EMAIL: require e-mail confirmation before sign-in (false)
	DisableSignup   bool          // SALAULA_DISABLE_SIGNUP: refuse new accounts (signup_disabled), e.g. to open by invitation (false)
	EmailRateLimit  Rate          // SALAULA_RATE_EMAIL: auth e-mails per address, besides one a minute ("5/1h")
	SupportEmail    string        // SALAULA_SUPPORT_EMAIL: where contact messages go, shown in the footer
	MailFrom        string        // SALAULA_MAIL_FROM: sender of outgoing e-mail
	SMTPURL         string        // SALAULA_SMTP_URL: smtp://user:pass@host:port; empty logs mail instead
	AuthRateLimit   Rate          // SALAULA_RATE_AUTH: sign-in/sign-up attempts per client address (IPv6: its /64) ("30/5m")
	FormRateLimit   Rate          // SALAULA_RATE_FORMS: contact/waitlist submissions per client address (IPv6: its /64) ("20/10m")
	UploadRateLimit Rate          // SALAULA_RATE_UPLOADS: uploads per client address (IPv6: its /64) ("60/10m")
	AnalyticsRate   Rate          // SALAULA_RATE_ANALYTICS: analytics events per client address (IPv6: its /64) ("600/10m")
	MaxUploadBytes  int64         // SALAULA_MAX_UPLOAD_BYTES: largest accepted image (10 MB)
	// MemoryLimit (SALAULA_MEMORY_LIMIT, in MiB; 0: none): the soft memory
	// limit serve gives the Go runtime, in bytes. Unset, it is
	// password.MemoryBudget() (60 MiB with 2 cores), or 0 when GOMEMLIMIT
	// is set, which the runtime then follows. See decision 0241.
	MemoryLimit     int64
	ShutdownTimeout time.Duration // SALAULA_SHUTDOWN_TIMEOUT: how long in-flight requests may finish (15s)
	ShutdownDrain   time.Duration // SALAULA_SHUTDOWN_DRAIN: at most how long to wait for the load balancer to hear "stopping" from /readyz (10s)
	S3              S3Config      // SALAULA_S3_*: store media in an S3-compatible bucket instead of DATA/media
	BackupEvery     time.Duration // SALAULA_BACKUP_EVERY: take a backup into DATA/backups this often (0: never)
	BackupKeep      int           // SALAULA_BACKUP_KEEP: how many scheduled backups to keep (7)
	BackupDir       string        // SALAULA_BACKUP_DIR: where scheduled backups go (DATA/backups); best on another disk
	// BackupS3 (SALAULA_BACKUP_S3_BUCKET; SALAULA_BACKUP_S3_ENDPOINT,
	// _REGION, _ACCESS_KEY, _SECRET_KEY default to the SALAULA_S3_* ones):
	// a bucket each scheduled backup is copied to, under backups/.
	BackupS3 S3Config

	// LogLevel (SALAULA_LOG_LEVEL: debug, info, warn or error; info): the
	// least important log lines written. At warn, the access log keeps only
	// the requests answered with a 5xx.
	LogLevel slog.Level

	// TrustedProxies (SALAULA_TRUSTED_PROXIES): the proxies in front of the
	// server, whose X-Forwarded-For and X-Forwarded-Proto are believed; the
	// client is the right-most address in X-Forwarded-For that is not one
	// of them. Empty (the default) believes no header. The older
	// SALAULA_TRUST_PROXY=true stands for "private" (loopback and private
	// networks).
	TrustedProxies clientip.Trusted

	// MetricsToken (SALAULA_METRICS_TOKEN): GET /metrics on the main address
	// answers only a request with "Authorization: Bearer <token>"; empty
	// closes it there. MetricsHTTP (SALAULA_METRICS_HTTP): a second listen
	// address (such as 127.0.0.1:9090) that serves /metrics without a token.
	MetricsToken string
	MetricsHTTP  string

	// RefreshReuseInterval (SALAULA_REFRESH_REUSE_INTERVAL, 10s): how long a
	// rotated refresh token still answers with its successor (tabs refreshing
	// at once); reuse after it revokes the session. 0s: no grace.
	RefreshReuseInterval time.Duration

	// EmailBodyRetention (SALAULA_EMAIL_BODY_RETENTION, 7 days): how long
	// a sent e-mail keeps its body and List-Unsubscribe address; after it
	// its record keeps only what the console and `salaula admin mail` show.
	// 0 clears them in the write that records the e-mail sent.
	EmailBodyRetention time.Duration

	// EmailRetention (SALAULA_EMAIL_RETENTION, 30 days): how long an
	// e-mail's record (recipient, subject, kind, state, times), in the
	// outbox or sent, is kept for the console and `salaula admin mail`; at
	// least an hour.
	EmailRetention time.Duration

	// Realtime holds the realtime socket's limits: SALAULA_REALTIME_MAX_CONNS
	// (10000 sockets on this instance), SALAULA_REALTIME_MAX_CONNS_PER_IP
	// (100), SALAULA_REALTIME_MAX_CHANNELS (100 per socket),
	// SALAULA_REALTIME_MAX_BINDINGS_PER_JOIN (20 different postgres_changes
	// bindings in one join), SALAULA_REALTIME_MAX_BINDINGS (100 per socket),
	// SALAULA_REALTIME_MAX_MESSAGE_BYTES (65536), SALAULA_REALTIME_SEND_QUEUE
	// (256 messages waiting before a slow client is dropped),
	// SALAULA_REALTIME_EVENTS_PER_SECOND (10 broadcast and presence events
	// a socket sends), SALAULA_REALTIME_TOPIC_MESSAGES_PER_SECOND (1000
	// messages a topic delivers, one per listener and KiB started).
	Realtime realtime.Config
}

// MinMetricsTokenLength is the shortest SALAULA_METRICS_TOKEN accepted.
const MinMetricsTokenLength = 16

// S3Config selects an S3-compatible media store; Bucket empty means local disk.
type S3Config struct {
	Endpoint     string // SALAULA_S3_ENDPOINT, e.g. https://s3.af-south-1.amazonaws.com or http://127.0.0.1:9000
	Region       string // SALAULA_S3_REGION ("us-east-1")
	Bucket       string // SALAULA_S3_BUCKET
	AccessKey    string // SALAULA_S3_ACCESS_KEY
	SecretKey    string // SALAULA_S3_SECRET_KEY
	UsePathStyle bool   // SALAULA_S3_PATH_STYLE: bucket in the path, as MinIO expects (true)
	// Timeout (SALAULA_S3_TIMEOUT, 20s): how long one call to S3 may take,
	// its retry included; a request for a file then answers 503.
	Timeout time.Duration
}

// Rate is a number of events allowed per window; Count 0 turns a limit off.
type Rate struct {
	Count  int
	Window time.Duration
}

// String formats a rate as "count/window".
func (r Rate) String() string { return fmt.Sprintf("%d/%s", r.Count, r.Window) }

// ParseRate reads "30/5m" (count per duration); "0" or "off" turns the limit off.
func ParseRate(s string) (Rate, error) {
	s = strings.TrimSpace(s)
	if s == "0" || s == "off" {
		return Rate{}, nil
	}
	count, window, ok := strings.Cut(s, "/")
	n, err := strconv.Atoi(count)
	if !ok || err != nil || n < 0 {
		return Rate{}, fmt.Errorf("rate %q: want COUNT/DURATION such as 30/5m", s)
	}
	d, err := time.ParseDuration(window)
	if err != nil || d <= 0 {
		return Rate{}, fmt.Errorf("rate %q: want COUNT/DURATION such as 30/5m", s)
	}
	return Rate{Count: n, Window: d}, nil
}

// Parse reads the flags in args (after the subcommand name) over the
// environment given by getenv.
func Parse(name string, args []string, getenv func(string) string, stderr io.Writer) (*Config, error) {
	env := func(key, def string) string {
		if v := getenv(key); v != "" {
			return v
		}
		return def
	}
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	c := &Config{DatabaseURL: withConnectTimeout(getenv("DATABASE_URL")), JWTSecret: getenv("SALAULA_JWT_SECRET"), SMTPURL: getenv("SALAULA_SMTP_URL")}
	fs.StringVar(&c.HTTPAddr, "http", env("SALAULA_HTTP", ":8080"), "listen address (SALAULA_HTTP)")
	fs.StringVar(&c.DataDir, "data", env("SALAULA_DATA", "./data"), "data folder for SQLite, media and the signing secret (SALAULA_DATA)")
	fs.StringVar(&c.PublicURL, "public-url", getenv("SALAULA_PUBLIC_URL"), "public base URL (SALAULA_PUBLIC_URL)")
	if err := fs.Parse(args); err != nil {
		return nil, err
	}
	if fs.NArg() > 0 {
		return nil, fmt.Errorf("%s: unexpected argument %q", name, fs.Arg(0))
	}
	var errs []error
	dur := func(key string, def time.Duration) time.Duration {
		v := getenv(key)
		if v == "" {
			return def
		}
		d, err := time.ParseDuration(v)
		if err != nil || d <= 0 {
			errs = append(errs, fmt.Errorf("%s=%q: want a duration such as 1h or 30s", key, v))
			return def
		}
		return d
	}
	rate := func(key, def string) Rate {
		r, err := ParseRate(env(key, def))
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", key, err))
		}
		return r
	}
	boolean := func(key string, def bool) bool {
		v := getenv(key)
		if v == "" {
			return def
		}
		b, err := strconv.ParseBool(v)
		if err != nil {
			errs = append(errs, fmt.Errorf("%s=%q: want true or false", key, v))
		}
		return b
	}
	c.AccessTokenTTL = dur("SALAULA_ACCESS_TOKEN_TTL", time.Hour)
	c.ShutdownTimeout = dur("SALAULA_SHUTDOWN_TIMEOUT", 15*time.Second)
	c.ShutdownDrain = dur("SALAULA_SHUTDOWN_DRAIN", 10*time.Second)
	if getenv("SALAULA_BACKUP_EVERY") != "" {
		c.BackupEvery = dur("SALAULA_BACKUP_EVERY", 0)
	}
	c.BackupKeep = 7
	if v := getenv("SALAULA_BACKUP_KEEP"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			errs = append(errs, fmt.Errorf("SALAULA_BACKUP_KEEP=%q: want how many backups to keep, 1 or more", v))
		} else {
			c.BackupKeep = n
		}
	}
	c.RefreshReuseInterval = 10 * time.Second
	if v := getenv("SALAULA_REFRESH_REUSE_INTERVAL"); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil || d < 0 {
			errs = append(errs, fmt.Errorf("SALAULA_REFRESH_REUSE_INTERVAL=%q: want a duration such as 10s (0s turns the grace off)", v))
		} else {
			c.RefreshReuseInterval = d
		}
	}
	c.EmailBodyRetention = DefaultEmailBodyRetention
	if v := getenv("SALAULA_EMAIL_BODY_RETENTION"); v != "" {
		d, err := parseDays(v)
		if err != nil || d < 0 {
			errs = append(errs, fmt.Errorf("SALAULA_EMAIL_BODY_RETENTION=%q: want a duration such as 7d, 48h or 0 (cleared as soon as the e-mail is sent)", v))
		} else {
			c.EmailBodyRetention = d
		}
	}
	c.EmailRetention = DefaultEmailRetention
	if v := getenv("SALAULA_EMAIL_RETENTION"); v != "" {
		d, err := parseDays(v)
		if err != nil || d < time.Hour {
			errs = append(errs, fmt.Errorf("SALAULA_EMAIL_RETENTION=%q: want a duration of at least an hour, such as 30d or 48h", v))
		} else {
			c.EmailRetention = d
		}
	}
	positive := func(key string, def int) int {
		v := getenv(key)
		if v == "" {
			return def
		}
		n, err := strconv.Atoi(v)
		if err != nil || n <= 0 {
			errs = append(errs, fmt.Errorf("%s=%q: want a positive whole number", key, v))
			return def
		}
		return n
	}
	rt := realtime.DefaultConfig()
	rt.MaxConns = positive("SALAULA_REALTIME_MAX_CONNS", rt.MaxConns)
	rt.MaxConnsPerIP = positive("SALAULA_REALTIME_MAX_CONNS_PER_IP", rt.MaxConnsPerIP)
	rt.MaxChannelsPerConn = positive("SALAULA_REALTIME_MAX_CHANNELS", rt.MaxChannelsPerConn)
	rt.MaxBindingsPerJoin = positive("SALAULA_REALTIME_MAX_BINDINGS_PER_JOIN", rt.MaxBindingsPerJoin)
	rt.MaxBindingsPerConn = positive("SALAULA_REALTIME_MAX_BINDINGS", rt.MaxBindingsPerConn)
	rt.MaxMessageBytes = int64(positive("SALAULA_REALTIME_MAX_MESSAGE_BYTES", int(rt.MaxMessageBytes)))
	rt.SendQueue = positive("SALAULA_REALTIME_SEND_QUEUE", rt.SendQueue)
	rt.EventsPerSecond = positive("SALAULA_REALTIME_EVENTS_PER_SECOND", rt.EventsPerSecond)
	rt.TopicMessagesPerSecond = positive("SALAULA_REALTIME_TOPIC_MESSAGES_PER_SECOND", rt.TopicMessagesPerSecond)
	c.Realtime = rt
	if v := getenv("SALAULA_LOG_LEVEL"); v != "" {
		if err := c.LogLevel.UnmarshalText([]byte(v)); err != nil {
			errs = append(errs, fmt.Errorf("SALAULA_LOG_LEVEL=%q: want debug, info, warn or error", v))
		}
	}
	c.ConfirmEmail = boolean("SALAULA_CONFIRM_EMAIL", false)
	c.TrustedProxies = trustedProxies(getenv, boolean("SALAULA_TRUST_PROXY", false), &errs)
	c.DisableSignup = boolean("SALAULA_DISABLE_SIGNUP", false)
	c.EmailRateLimit = rate("SALAULA_RATE_EMAIL", "5/1h")
	c.SupportEmail = env("SALAULA_SUPPORT_EMAIL", "support@salaula.co.zm")
	c.MailFrom = env("SALAULA_MAIL_FROM", "Salaula <no-reply@salaula.co.zm>")
	c.AuthRateLimit = rate("SALAULA_RATE_AUTH", "30/5m")
	c.FormRateLimit = rate("SALAULA_RATE_FORMS", "20/10m")
	c.UploadRateLimit = rate("SALAULA_RATE_UPLOADS", "60/10m")
	c.AnalyticsRate = rate("SALAULA_RATE_ANALYTICS", "600/10m")
	c.MaxUploadBytes = 10 << 20
	if v := getenv("SALAULA_MAX_UPLOAD_BYTES"); v != "" {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || n <= 0 {
			errs = append(errs, fmt.Errorf("SALAULA_MAX_UPLOAD_BYTES=%q: want a positive number of bytes", v))
		} else {
			c.MaxUploadBytes = n
		}
	}
	switch v := getenv("SALAULA_MEMORY_LIMIT"); {
	case v != "":
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || n < 0 || n > 1<<30 {
			errs = append(errs, fmt.Errorf("SALAULA_MEMORY_LIMIT=%q: want a whole number of MiB (0: no limit)", v))
		}
		c.MemoryLimit = n << 20
	case getenv("GOMEMLIMIT") == "":
		c.MemoryLimit = password.MemoryBudget()
	}
	c.S3 = S3Config{
		Endpoint:     getenv("SALAULA_S3_ENDPOINT"),
		Region:       env("SALAULA_S3_REGION", "us-east-1"),
		Bucket:       getenv("SALAULA_S3_BUCKET"),
		AccessKey:    getenv("SALAULA_S3_ACCESS_KEY"),
		SecretKey:    getenv("SALAULA_S3_SECRET_KEY"),
		UsePathStyle: boolean("SALAULA_S3_PATH_STYLE", true),
		Timeout:      dur("SALAULA_S3_TIMEOUT", 20*time.Second),
	}
	c.BackupDir = env("SALAULA_BACKUP_DIR", filepath.Join(c.DataDir, "backups"))
	c.BackupS3 = S3Config{
		Endpoint:     env("SALAULA_BACKUP_S3_ENDPOINT", c.S3.Endpoint),
		Region:       env("SALAULA_BACKUP_S3_REGION", c.S3.Region),
		Bucket:       getenv("SALAULA_BACKUP_S3_BUCKET"),
		AccessKey:    env("SALAULA_BACKUP_S3_ACCESS_KEY", c.S3.AccessKey),
		SecretKey:    env("SALAULA_BACKUP_S3_SECRET_KEY", c.S3.SecretKey),
		UsePathStyle: c.S3.UsePathStyle,
		Timeout:      c.S3.Timeout,
	}
	c.MetricsToken = getenv("SALAULA_METRICS_TOKEN")
	if c.MetricsToken != "" && len(c.MetricsToken) < MinMetricsTokenLength {
		errs = append(errs, fmt.Errorf("SALAULA_METRICS_TOKEN must be at least %d characters (try: openssl rand -hex 24)", MinMetricsTokenLength))
	}
	c.MetricsHTTP = getenv("SALAULA_METRICS_HTTP")
	if c.MetricsHTTP != "" && c.MetricsHTTP == c.HTTPAddr {
		errs = append(errs, fmt.Errorf("SALAULA_METRICS_HTTP=%q must differ from the main listen address", c.MetricsHTTP))
	}
	c.PublicURLSet = c.PublicURL != ""
	if c.PublicURL == "" {
		c.PublicURL = "http://localhost" + portOf(c.HTTPAddr)
	}
	c.PublicURL = strings.TrimRight(c.PublicURL, "/")
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	return c, nil
}

// trustedProxies reads SALAULA_TRUSTED_PROXIES; trustProxy is
// SALAULA_TRUST_PROXY, which stands for the loopback and private networks
// and may not be set beside it.
func trustedProxies(getenv func(string) string, trustProxy bool, errs *[]error) clientip.Trusted {
	list := getenv("SALAULA_TRUSTED_PROXIES")
	if strings.TrimSpace(list) == "" {
		if trustProxy {
			return clientip.Private
		}
		return nil
	}
	if trustProxy {
		*errs = append(*errs, errors.New("SALAULA_TRUST_PROXY=true and SALAULA_TRUSTED_PROXIES are both set: keep only SALAULA_TRUSTED_PROXIES (SALAULA_TRUST_PROXY=true is the same as SALAULA_TRUSTED_PROXIES=private)"))
		return nil
	}
	t, err := clientip.Parse(list)
	if err != nil {
		*errs = append(*errs, fmt.Errorf("SALAULA_TRUSTED_PROXIES: %w (want addresses and networks separated by commas, such as 127.0.0.1,10.0.0.0/8)", err))
		return nil
	}
	return t
}

// DefaultConnectTimeout bounds connecting to PostgreSQL when DATABASE_URL
// does not say (its connect_timeout, in seconds).
const DefaultConnectTimeout = "10"

// withConnectTimeout adds connect_timeout to a postgres:// URL without one,
// so a PostgreSQL that does not answer fails the connection instead of
// holding the request that needed it.
func withConnectTimeout(dsn string) string {
	u, err := url.Parse(dsn)
	if dsn == "" || err != nil || (u.Scheme != "postgres" && u.Scheme != "postgresql") {
		return dsn
	}
	q := u.Query()
	if q.Get("connect_timeout") != "" {
		return dsn
	}
	q.Set("connect_timeout", DefaultConnectTimeout)
	u.RawQuery = q.Encode()
	return u.String()
}

func portOf(addr string) string {
	if i := strings.LastIndex(addr, ":"); i >= 0 {
		if addr[i+1:] == "80" {
			return ""
		}
		return addr[i:]
	}
	return ":8080"
}

// Secret returns the JWT signing secret: SALAULA_JWT_SECRET when given, else
// the contents of DATA/jwt-secret, creating that file (mode 0600) with 32
// random bytes on first start.
func (c *Config) Secret() ([]byte, error) {
	if c.JWTSecret != "" {
		if len(c.JWTSecret) < 32 {
			return nil, errors.New("SALAULA_JWT_SECRET must be at least 32 characters")
		}
		return []byte(c.JWTSecret), nil
	}
	path := filepath.Join(c.DataDir, "jwt-secret")
	if b, err := os.ReadFile(path); err == nil {
		s := strings.TrimSpace(string(b))
		if len(s) < 32 {
			return nil, fmt.Errorf("%s is shorter than 32 characters: remove it to make a new one", path)
		}
		return []byte(s), nil
	} else if !errors.Is(err, os.ErrNotExist) {
		return nil, err
	}
	if err := os.MkdirAll(c.DataDir, 0o750); err != nil {
		return nil, err
	}
	raw := make([]byte, 32)
	if _, err := rand.Read(raw); err != nil {
		return nil, err
	}
	s := hex.EncodeToString(raw)
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		if errors.Is(err, os.ErrExist) { // another process won the race
			return c.Secret()
		}
		return nil, err
	}
	if _, err := f.WriteString(s + "\n"); err != nil {
		f.Close()
		return nil, err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return nil, err
	}
	return []byte(s), f.Close()
}

// DefaultEmailBodyRetention is how long a sent e-mail keeps its body when
// SALAULA_EMAIL_BODY_RETENTION is unset.
const DefaultEmailBodyRetention = 7 * 24 * time.Hour

// DefaultEmailRetention is how long the outbox keeps an e-mail's record
// when SALAULA_EMAIL_RETENTION is unset.
const DefaultEmailRetention = 30 * 24 * time.Hour

// parseDays reads a duration as time.ParseDuration does, or a whole number
// of days ("7d"), or "0".
func parseDays(v string) (time.Duration, error) {
	if n, ok := strings.CutSuffix(v, "d"); ok {
		days, err := strconv.Atoi(n)
		if err != nil || days < 0 || days > 3650 {
			return 0, fmt.Errorf("%q is not a whole number of days", v)
		}
		return time.Duration(days) * 24 * time.Hour, nil
	}
	return time.ParseDuration(v)
}
