package config

import (
	"bufio"
	"fmt"
	"os"
	"regexp"
	"strings"
)

// EnvFileVar names the environment variable that may name the env file,
// as the --env-file flag does.
const EnvFileVar = "SALAULA_ENV_FILE"

var envKey = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// ReadEnvFile reads the settings file that systemd's EnvironmentFile= and
// `set -a; . FILE` both read: KEY=VALUE lines, # comments, an optional
// "export ", values quoted with '...' (as they are) or "..." (\", \\, \$
// and \` escaped). An unquoted value may hold no character a shell would
// read otherwise (spaces, < > | & ; $ ` quotes...): the file refuses what
// sh would read differently from systemd.
func ReadEnvFile(path string) (map[string]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("env file: %w", err)
	}
	defer f.Close()
	out := map[string]string{}
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		line = strings.TrimPrefix(line, "export ")
		key, raw, ok := strings.Cut(line, "=")
		if !ok || !envKey.MatchString(key) {
			return nil, fmt.Errorf("%s:%d: want KEY=VALUE", path, n)
		}
		val, err := envValue(raw)
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %s: %w", path, n, key, err)
		}
		out[key] = val
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("env file: %w", err)
	}
	return out, nil
}

func envValue(raw string) (string, error) {
	switch {
	case strings.HasPrefix(raw, "'"):
		if len(raw) < 2 || !strings.HasSuffix(raw, "'") || strings.Contains(raw[1:len(raw)-1], "'") {
			return "", fmt.Errorf("the value must end with its closing ' (and hold no other ')")
		}
		return raw[1 : len(raw)-1], nil
	case strings.HasPrefix(raw, `"`):
		var b strings.Builder
		for i := 1; i < len(raw); i++ {
			c := raw[i]
			switch {
			case c == '\\' && i+1 < len(raw) && strings.IndexByte("\"\\$`", raw[i+1]) >= 0:
				b.WriteByte(raw[i+1])
				i++
			case c == '"':
				if i != len(raw)-1 {
					return "", fmt.Errorf("nothing may follow the closing \"")
				}
				return b.String(), nil
			case c == '$' || c == '`':
				return "", fmt.Errorf("sh would expand %c inside \"...\": use '...' or \\%c", c, c)
			default:
				b.WriteByte(c)
			}
		}
		return "", fmt.Errorf("the value must end with its closing \"")
	}
	if i := strings.IndexAny(raw, " \t<>|&;$`'\"()\\*?[]#~"); i >= 0 {
		return "", fmt.Errorf("quote the value, e.g. '%s': sh reads %q in it otherwise", raw, raw[i])
	}
	return raw, nil
}

// WithEnvFile takes --env-file FILE (or --env-file=FILE) out of args, or
// the file SALAULA_ENV_FILE names, and returns args without it and a
// getenv that reads the process's environment first, then the file.
func WithEnvFile(args []string, getenv func(string) string) ([]string, func(string) string, error) {
	path := getenv(EnvFileVar)
	var rest []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--env-file" || a == "-env-file":
			if i+1 >= len(args) {
				return nil, nil, fmt.Errorf("--env-file needs a FILE")
			}
			path = args[i+1]
			i++
		case strings.HasPrefix(a, "--env-file=") || strings.HasPrefix(a, "-env-file="):
			_, path, _ = strings.Cut(a, "=")
		default:
			rest = append(rest, a)
		}
	}
	if path == "" {
		return args, getenv, nil
	}
	file, err := ReadEnvFile(path)
	if err != nil {
		return nil, nil, err
	}
	return rest, func(k string) string {
		if v := getenv(k); v != "" {
			return v
		}
		return file[k]
	}, nil
}
