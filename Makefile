# Set-up and everyday commands. `make test` and `make demo` do the whole set-up first.
PYTHON ?= python3
ifdef VIRTUAL_ENV
VENV := $(VIRTUAL_ENV)
else
VENV := .venv
endif
PY := $(VENV)/bin/python
STAMP := $(VENV)/.srl_zoo_installed
SCORER := .cache/srl-eval/srl-eval.pl

.PHONY: install test demo scorer benchmark-readers clean

install: $(STAMP) $(SCORER)

# Re-runs only when the lock file or setup.py change, so a second `make install` is instant.
$(STAMP): requirements.lock setup.py
	@test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --disable-pip-version-check --no-deps -r requirements.lock
	$(PY) -m pip install -q --disable-pip-version-check --no-deps --no-build-isolation -e .
	@touch $@

$(SCORER): scripts/fetch_srl_eval.py | $(STAMP)
	$(PY) scripts/fetch_srl_eval.py $(SCORER)

scorer: $(SCORER)

test: install
	$(PY) -m pytest -q tests

demo: install
	$(PY) scripts/demo.py

clean:
	rm -rf .cache .pytest_cache .hypothesis runs
