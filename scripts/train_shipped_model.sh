#!/usr/bin/env bash
# Reproduce the shipped English model (models/ewt-english.tar.gz) and its report (README, "The shipped model"):
#   bash scripts/train_shipped_model.sh [RUN_DIR]        (default runs/shipped; about 65 minutes on one CPU thread)
# Trains the recipe training_configs/recommended/sc_bilstm_cpu_budget_predicates_conll2012.jsonnet on the
# bundled EWT CoNLL-2012 train file for SRL_BUDGET_MINUTES (default 60) on one thread with GloVe 6B 50-d
# (`make glove`), exports it in half precision, and scores it on the bundled dev file with gold and with
# predicted predicates (srl_zoo's metric and srl-eval.pl), writing the error-analysis report.
set -euo pipefail
cd "$(dirname "$0")/.."
run=${1:-runs/shipped}
python=${PYTHON:-.venv/bin/python}
dev=data/ewt/conll2012/dev.gold_conll.gz
make glove
export OMP_NUM_THREADS=1 SRL_GLOVE=.cache/glove/glove.6B.50d.txt.gz SRL_BUDGET_MINUTES=${SRL_BUDGET_MINUTES:-60}
"$python" -m allennlp train training_configs/recommended/sc_bilstm_cpu_budget_predicates_conll2012.jsonnet \
    -s "$run" --include-package srl_zoo > "$run.log" 2>&1
"$python" -m allennlp srl-export "$run/model.tar.gz" "$run/ewt-english.tar.gz" --include-package srl_zoo
"$python" -m allennlp srl-evaluate "$run/ewt-english.tar.gz" "$dev" --output-dir "$run/dev" \
    --report "$run/report" --include-package srl_zoo 2> "$run/dev.log"
"$python" -m allennlp srl-evaluate "$run/ewt-english.tar.gz" "$dev" --output-dir "$run/dev_predicted" \
    --predicate-source predicted --include-package srl_zoo 2> "$run/dev_predicted.log"
echo "to ship: cp $run/ewt-english.tar.gz models/ && cp -r $run/report/. docs/reports/ewt-english-dev/"
