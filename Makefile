# Telepath — see README.md. The two commands a newcomer needs: make run, make test.
GO      ?= go
NPM     ?= npm
BIN     := bin/telepath
WEB_SRC := $(shell find web/src web/index.html web/public web/vite.config.ts web/tsconfig.json -type f 2>/dev/null)

export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD := 1

.PHONY: run build test test-go test-web test-e2e screens a11y deps api bench bench-data bench-1m bench-web clean

## run: build everything and start the demo on http://127.0.0.1:8080
run: build
	TELEPATH_DEMO=1 $(BIN) serve

## build: bin/telepath with the web app embedded
build: $(BIN)

$(BIN): web/dist/index.html $(shell find cmd internal migrations third_party -name '*.go' -o -name '*.sql' -o -name '*.json' 2>/dev/null) go.mod go.sum
	$(GO) build -trimpath -o $(BIN) ./cmd/telepath

# npm packages may ship Go sources (flatted, under ESLint, does): a go.mod in
# node_modules makes it a module of its own, so ./... never builds or vets them.
web/node_modules/.stamp: web/package.json web/package-lock.json
	cd web && $(NPM) ci --no-audit --no-fund
	printf 'module telepath/web/node_modules\n' > web/node_modules/go.mod
	touch $@

web/dist/index.html: web/node_modules/.stamp $(WEB_SRC)
	cd web && $(NPM) run build

## test: every test — Go (SQLite, and PostgreSQL when TELEPATH_TEST_POSTGRES_URL is set), web, browser end-to-end;
##   the browser walks run beside the others (scripts/test-all.sh)
test: deps $(BIN) web/node_modules/.stamp e2e/node_modules/.stamp
	scripts/test-all.sh

## deps: Debian packages the tests use (Chromium, slide tools, CJK fonts); installs only what is missing
deps:
	scripts/deps.sh

test-go: web/dist/index.html
	$(GO) vet ./...
	$(GO) test -count=1 -timeout 35m ./...

# web/dist's recipe (npm run build) type-checks first: tsc is not run twice (27 s each).
test-web: web/dist/index.html
	cd web && $(NPM) run lint && $(NPM) test

e2e/node_modules/.stamp: e2e/package.json e2e/package-lock.json
	cd e2e && $(NPM) ci --no-audit --no-fund
	touch $@

test-e2e: $(BIN) e2e/node_modules/.stamp
	cd e2e && $(NPM) test

## screens: the browser walks with every screen shot in both languages (e2e/artifacts/)
screens: $(BIN) e2e/node_modules/.stamp
	cd e2e && TELEPATH_E2E_SCREENS=all $(NPM) test

## a11y: axe-core on every menu screen of every role (also part of make screens)
a11y: $(BIN) e2e/node_modules/.stamp
	cd e2e && TELEPATH_E2E_A11Y=1 $(NPM) test -- tests/accessibility.spec.ts

## api: regenerate web/src/lib/api/openapi.json and the web app's API types
api: web/node_modules/.stamp
	UPDATE_OPENAPI=1 $(GO) test ./internal/app -run TestOpenAPIFile -count=1
	cd web && $(NPM) run gen:api

## bench: list and slide benchmarks (not tests; see README)
bench:
	$(GO) test -run '^$$' -bench . -benchtime 2s ./internal/...

## bench-web: first load in headless Chromium (/login JS, sign-in to case list, workspace); RUNS=5
bench-web: build
	cd e2e && node bench/first-load.mjs

clean:
	rm -rf bin web/dist

## bench-data: load 1,000,000 cases and 100,000 users into the configured database
##   (TELEPATH_DATA_DIR / TELEPATH_DATABASE_URL; use a database of its own; triggers off,
##   rebuilt at the end: PostgreSQL rows 32 min + rollups 13+ min on the loaded 2-core machine), then
##   TELEPATH_BENCH_1M_SQLITE=<dir> / TELEPATH_BENCH_1M_POSTGRES=<url> make bench-1m
bench-data: build
	$(BIN) bench-data

bench-1m:
	$(GO) test -run '^$$' -bench Lists1M -benchtime 100x ./internal/app
