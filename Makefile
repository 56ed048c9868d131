# Salaula: `make run` to start the server, `make test` to run every test.
SHELL := bash
.SHELLFLAGS := -eu -o pipefail -c
.DEFAULT_GOAL := run

BIN      := bin/salaula
WEB_DIST := internal/webapp/dist
GO_SRC   := $(shell find cmd internal -name '*.go' -o -name '*.sql' -o -name '*.txt' | grep -v _test.go)
WEB_SRC  := $(shell find web/src web/public web/index.html web/vite.config.ts web/tsconfig.json web/scripts/precompress.mjs web/scripts/prerender.mjs -type f 2>/dev/null)
VERSION  := $(shell git describe --always --dirty 2>/dev/null || echo dev)

.PHONY: run build check test test-go test-web test-e2e test-supabase test-fuzz fuzz bench deps chromium tools aiosmtpd wrk jq clean

## run: install what is missing, build, and serve on http://localhost:8080 with data in ./data
## (PORT=9000 serves on another port; without PORT, SALAULA_HTTP or :8080)
run: build
	./$(BIN) serve $(if $(PORT),--http :$(PORT)) --data ./data

## build: the binary with the built web app embedded
build: $(BIN)

$(BIN): web/node_modules/.installed $(WEB_SRC) $(GO_SRC) go.mod go.sum
	cd web && npm run build
	touch $(WEB_DIST)/.gitkeep
	go mod download
	go build -trimpath -ldflags "-s -w -X main.version=$(VERSION)" -o $(BIN) ./cmd/salaula

web/node_modules/.installed: web/package.json web/package-lock.json
	cd web && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --no-audit --no-fund
	touch $@

deps: web/node_modules/.installed
	go mod download

## chromium: install Debian's Chromium for the browser tests when it is missing
chromium:
	@if [ ! -x /usr/bin/chromium ]; then \
		echo "Installing Chromium from Debian's packages..."; \
		SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
		$$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq chromium chromium-driver; \
	fi

## tools: the real services and tools the tests run against: Versity's S3
## gateway (bin/tools/versitygw), Debian's aiosmtpd (SMTP), caddy (the load
## balancer of docs/deploy/Caddyfile, bin/tools/caddy), jq (the guide's log
## filter) and wrk (make bench's load)
VERSITYGW := bin/tools/versitygw
STATICCHECK := bin/tools/staticcheck
CADDY := bin/tools/caddy
tools: $(VERSITYGW) $(STATICCHECK) aiosmtpd $(CADDY) jq wrk

$(VERSITYGW):
	GOBIN=$(CURDIR)/bin/tools go install github.com/versity/versitygw/cmd/versitygw@v1.8.0

## caddy 2.11.9: it retries a POST with its body (caddyserver/caddy#7546),
## which Debian's caddy 2.6 does not
$(CADDY):
	GOBIN=$(CURDIR)/bin/tools go install github.com/caddyserver/caddy/v2/cmd/caddy@v2.11.9

$(STATICCHECK):
	GOBIN=$(CURDIR)/bin/tools go install honnef.co/go/tools/cmd/staticcheck@v0.8.2

aiosmtpd:
	@if ! /usr/bin/python3 -c 'import aiosmtpd' 2>/dev/null; then \
		echo "Installing aiosmtpd from Debian's packages..."; \
		SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
		$$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq python3-aiosmtpd; \
	fi

## jq: install Debian's jq, the log filter docs/deploy.md shows, when it is missing
jq:
	@if ! command -v jq >/dev/null; then \
		echo "Installing jq from Debian's packages..."; \
		SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
		$$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq jq; \
	fi

## wrk: install Debian's wrk, the load generator of make bench, when it is missing
wrk:
	@if ! command -v wrk >/dev/null; then \
		echo "Installing wrk from Debian's packages..."; \
		SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
		$$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq wrk; \
	fi

## test: the checks, then every test: Go (both stores), web unit tests, supabase-js in Node, browser tests
test: check test-go test-web test-supabase test-e2e

## check: go vet, staticcheck, go.mod tidy, ESLint and the TypeScript compiler on web/
check: web/node_modules/.installed $(STATICCHECK)
	go vet ./...
	$(STATICCHECK) ./...
	go mod tidy -diff
	cd web && npm run lint && npm run typecheck

test-go: build tools
	go test -count=1 -timeout 30m ./...
	$(MAKE) test-fuzz FUZZTIME=2s

# Go native fuzz targets (package:Name); their seed inputs also run in `go test`.
FUZZ_TARGETS := internal/server:FuzzPublicForms internal/server:FuzzAuthBodies \
	internal/server:FuzzOnboardingPayloads internal/media:FuzzObjectPaths internal/media:FuzzStripMetadata \
	internal/realtime:FuzzDecode internal/validate:FuzzEmailShape internal/mail:FuzzLinks
FUZZTIME ?= 2s

## test-fuzz: run every fuzz target for FUZZTIME (make test: 2s each)
# Go 1.26's fuzz coordinator can fail a run that found nothing with "context
# deadline exceeded" as -fuzztime ends (go.dev/issue/75804, fixed in Go
# 1.27). Such a run, which wrote no failing input, is run once more; a
# failing input, or a second failure, fails.
test-fuzz:
	@out=$$(mktemp); trap 'rm -f $$out' EXIT; \
	for t in $(FUZZ_TARGETS); do \
		pkg=$${t%%:*}; name=$${t##*:}; \
		for try in 1 2; do \
			echo "fuzz $$name ($(FUZZTIME))"; \
			if go test -run '^$$' -fuzz "^$$name\$$" -fuzztime $(FUZZTIME) ./$$pkg 2>&1 | tee $$out; then break; fi; \
			if [ $$try = 1 ] && grep -q 'context deadline exceeded' $$out && ! grep -q 'Failing input written' $$out; then \
				echo "fuzz $$name: Go's fuzz coordinator ended on its own deadline, no failing input (go.dev/issue/75804): once more"; \
				continue; \
			fi; \
			exit 1; \
		done; \
	done

## fuzz: run every fuzz target longer (FUZZTIME=2m by default); crashers land in testdata/fuzz/
fuzz:
	$(MAKE) test-fuzz FUZZTIME=$${FUZZTIME:-2m}

test-web: web/node_modules/.installed
	cd web && npm test

test-supabase: build
	cd web && npm run test:supabase

test-e2e: build chromium tools
	cd web && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npx playwright test

PB_VERSION := v0.39.11
PB_BIN     := bin/bench/base
# The console's scale scenario: this many waitlist sign-ups on each system
# (0 leaves it out; a million takes a few minutes and ~3 GB of disk).
SALAULA_BENCH_SIGNUPS ?= 1000000
# A second salaula binary to compare with, e.g. the previous release's
# (make bench BASELINE=bin/salaula-prev); empty: none.
BASELINE ?=

## bench: Go benchmarks, the home page's first-load weight, salaula against PocketBase (and BASELINE, a previous salaula binary, when given) side by side under wrk (bench/*.lua), Lighthouse (mobile) on the public pages (docs/benchmarks.md)
bench: build chromium wrk $(PB_BIN)
	go test -run '^$$' -bench . -benchmem ./...
	cd web && node scripts/first-load-weight.mjs
	go run ./cmd/salaula-bench -salaula $(BIN) $(if $(BASELINE),-baseline $(BASELINE)) -pocketbase $(PB_BIN) -scale $(SALAULA_BENCH_SIGNUPS) -out docs/benchmarks.md
	cd web && CHROME_PATH=$${CHROME_PATH:-/usr/bin/chromium} node scripts/lighthouse.mjs $(if $(BASELINE),--baseline $(abspath $(BASELINE)))

# PocketBase from its Go module at a pinned version, into a project-local folder.
$(PB_BIN):
	GOBIN=$(CURDIR)/bin/bench go install github.com/pocketbase/pocketbase/examples/base@$(PB_VERSION)

clean:
	rm -rf bin web/test-results
	find $(WEB_DIST) -mindepth 1 ! -name .gitkeep -delete
