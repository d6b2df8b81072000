# The README's two commands: `make run` and `make test`. Everything else they need
# (virtual environments, packages, the dictionary, dynalite) is set up here on first use.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
SAM_VENV := .venv-sam
SAM_CLI := aws-sam-cli>=1.170,<2
DICT := shared/harftet/words/data/words.txt.gz
FREQ := shared/harftet/words/data/frequency.txt.gz
INFO := shared/harftet/words/data/words.info.gz
INDEX := shared/harftet/words/data/words.index.bin
PORT ?= 3000
export SAM_CLI_TELEMETRY := 0

.PHONY: run test test-setup lint typecheck dictionary bench sam-validate sam-build ts-client clean web-deploy lock

run: $(VENV)/.installed $(DICT) $(FREQ) $(INFO) $(INDEX)
	PORT=$(PORT) $(PY) -m harftet.localstack $(if $(FRESH),--fresh)

# Set-up, lint and types side by side (-j3): the two virtual environments and npm wait mostly
# on downloads and unpacking, and ruff and mypy run once .venv is there, beside the rest.
# The 25 slowest tests are listed at the end: where the suite's time goes, in every CI log.
# Bytecode is written while the tests run, even where PYTHONDONTWRITEBYTECODE is set (as on
# CI): uv installs no .pyc files, so every Python process the suite starts (each local stack
# and its function workers, cfn-lint, sam) compiled moto, botocore or samcli again, 2-6 s of
# CPU each. The caches go to .venv, .venv-sam and __pycache__ folders git ignores.
# Four workers on CI's two cores: much of the suite's time is spent waiting (on a local
# stack, a browser, PyPI in the SAM build, a timed soak), and on a busy machine the CPU is
# shared out per process. Whole files go to one worker (--dist loadfile): a module's local
# stacks start once, not once on every worker its tests were spread over; the longest files
# start first (tests/conftest.py, SLOW_FIRST), in the order collected (xdist would otherwise
# hand out the files with the most tests first, and the two-test fuzz file ran last).
test:
	@$(MAKE) --no-print-directory -j3 --output-sync=target lint typecheck test-setup
	PYTHONDONTWRITEBYTECODE= $(VENV)/bin/pytest -n 4 --dist loadfile --no-loadscope-reorder -q --durations=25

test-setup: $(VENV)/.installed $(DICT) $(FREQ) $(INFO) $(INDEX) node_modules/.installed $(SAM_VENV)/.installed chromium

# The architecture's contracts ([tool.importlinter] in pyproject.toml) and the house's budgets
# (tests/house.py: sizes, duplicated blocks, who reads the environment), printed in every log.
lint: $(VENV)/.installed
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/lint-imports --no-cache
	$(PY) tests/house.py

typecheck: $(VENV)/.installed
	$(VENV)/bin/mypy

dictionary: $(DICT) $(FREQ) $(INFO) $(INDEX)

bench: $(VENV)/.installed $(DICT) $(FREQ) $(INFO) $(INDEX) node_modules/.installed
	$(PY) -m bench

# Packages go in with uv (from PyPI, into each venv): the same resolution as pip's from the
# same pins, in 15-20 s where pip took 75-90 s on a quiet two-core machine and several minutes
# on a busy one. pip stays in .venv as venv made it (the dictionary build downloads with it).
# Every package is held to the version in constraints/ (what the suite last ran with; the
# layer's pins in shared/requirements.txt among them), so a release upstream changes nothing
# here until `make lock` takes it in and the tests pass with it.
$(VENV)/.installed: pyproject.toml constraints/dev.txt
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --disable-pip-version-check uv
	$(VENV)/bin/uv pip install -q --python $(PY) -c constraints/dev.txt -e '.[dev]'
	touch $@

# Newer versions within pyproject.toml's ranges (and SAM's), resolved for every platform.
# The layer's pins hold: raise them in shared/requirements.txt first.
COMPILE := $(VENV)/bin/uv pip compile -q --upgrade --universal --python-version 3.11
lock: $(VENV)/.installed
	$(COMPILE) pyproject.toml --extra dev -c shared/requirements.txt -o constraints/dev.txt
	echo '$(SAM_CLI)' | $(COMPILE) - --no-emit-package setuptools -o constraints/sam.txt

# One run writes all three: the word list, its frequency ranking and each word's kinds/sources (grouped target, GNU make ≥ 4.3).
BUILD := $(wildcard shared/harftet/words/build*.py)
$(DICT) $(FREQ) $(INFO) &: $(VENV)/.installed $(BUILD) shared/harftet/words/allow.txt shared/harftet/words/deny.txt shared/harftet/words/blocked.txt
	$(PY) -m harftet.words.build

# The computer player's search index, built with the dictionary (never on a first search).
$(INDEX): $(DICT) shared/harftet/engine/words/index.py
	$(PY) -m harftet.engine.words.index

# dynalite (a second DynamoDB for the store tests), the AsyncAPI parser, openapi-typescript, tsc,
# happy-dom (the DOM of the web client's node tests).
node_modules/.installed: package.json
	npm install --no-audit --no-fund --loglevel=error
	touch $@

# Debian's Chromium for the browser test (Playwright drives it; it never downloads a browser).
.PHONY: chromium
chromium:
	@command -v chromium >/dev/null 2>&1 || { \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; }

# AWS SAM CLI lives in its own virtual environment (it pins its own boto3/pydantic).
$(SAM_VENV)/.installed: constraints/sam.txt
	test -x $(SAM_VENV)/bin/python || $(PYTHON) -m venv $(SAM_VENV)
	$(SAM_VENV)/bin/python -m pip install -q --disable-pip-version-check uv
	$(SAM_VENV)/bin/uv pip install -q --python $(SAM_VENV)/bin/python -c constraints/sam.txt '$(SAM_CLI)'
	touch $@

# TypeScript types for clients, from docs/openapi.json (clients/typescript/harftet.ts uses them).
ts-client: node_modules/.installed
	node_modules/.bin/openapi-typescript docs/openapi.json --default-non-nullable false \
	  -o clients/typescript/generated/openapi.ts
	node_modules/.bin/tsc --noEmit -p clients/typescript/tsconfig.json

sam-validate: $(SAM_VENV)/.installed
	$(SAM_VENV)/bin/sam validate --lint

# The python3.12 runtime needs a python3.12 on PATH (no Docker here). Under pyenv, expose the
# newest installed 3.12 next to the current version; elsewhere, install Python 3.12.
sam-build: $(SAM_VENV)/.installed $(DICT) $(FREQ) $(INFO) $(INDEX)
	py312=$$(pyenv versions --bare 2>/dev/null | grep -E '^3\.12(\.[0-9]+)?$$' | sort -V | tail -n 1); \
	if [ -n "$$py312" ]; then export PYENV_VERSION="$$(pyenv version-name):$$py312"; fi; \
	$(SAM_VENV)/bin/sam build

# The web client to the stack's bucket (deployed with WebClient=true): config.json names the
# stack's APIs; texts.{tr,en}.json are the catalogue the first screen draws from (GET /texts with
# its ETag) and sw.js has its VERSION stamped by the shell's hash (harftet.localstack.client_files;
# uploaded last: a new worker finds the whole new shell); icons are kept a week, everything else
# is revalidated by ETag (docs/DEPLOY.md).
STACK ?= harftet
WEB := clients/web
web-deploy:
	@command -v aws >/dev/null || { echo "web-deploy needs the AWS CLI (aws)"; exit 1; }
	out() { aws cloudformation describe-stacks --stack-name $(STACK) \
	  --query "Stacks[0].Outputs[?OutputKey=='$$1'].OutputValue" --output text; }; \
	bucket=$$(out WebClientBucketName); rest=$$(out RestApiUrl); ws=$$(out WebSocketUrl); \
	test -n "$$bucket" -a "$$bucket" != None || { echo "deploy with WebClient=true first"; exit 1; }; \
	printf '{"rest": "%s", "ws": "%s"}\n' "$$rest" "$$ws" > .web-config.json; \
	aws s3 sync $(WEB) s3://$$bucket --delete --exclude 'icons/*' --exclude config.json \
	  --exclude package.json --exclude 'texts.*.json' --exclude sw.js --cache-control no-cache; \
	rm -rf .web-gen && mkdir .web-gen && $(PY) -m harftet.localstack.client_files $(WEB) .web-gen && \
	aws s3 sync .web-gen s3://$$bucket --exclude sw.js --cache-control no-cache \
	  --content-type application/json; \
	aws s3 cp .web-gen/sw.js s3://$$bucket/sw.js --cache-control no-cache \
	  --content-type 'text/javascript; charset=utf-8'; \
	rm -rf .web-gen; \
	aws s3 cp .web-config.json s3://$$bucket/config.json --cache-control no-cache \
	  --content-type application/json; \
	aws s3 cp $(WEB)/manifest.webmanifest s3://$$bucket/manifest.webmanifest \
	  --cache-control no-cache --content-type application/manifest+json; \
	aws s3 sync $(WEB)/icons s3://$$bucket/icons --delete --cache-control 'public, max-age=604800'; \
	aws s3 sync docs s3://$$bucket/docs --exclude '*' --include '*.md' --cache-control no-cache \
	  --content-type 'text/markdown; charset=utf-8'; \
	rm -f .web-config.json; \
	echo "web client: $$(out WebClientUrl)"

clean:
	rm -rf $(VENV) $(SAM_VENV) node_modules .aws-sam .cache
