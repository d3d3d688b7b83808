#!/usr/bin/env bash
# Reproduce a shipped English model and its report (README, "The shipped English model"):
#   bash scripts/train_shipped_model.sh [RUN_DIR] [minilm|minilm-nogates|minilm-distilled|minilm-text|minilm-gum|minilm-l6|glove]     (defaults: runs/shipped, minilm)
#   SRL_RECOVER=1 bash scripts/train_shipped_model.sh RUN_DIR MODEL   goes on with a run cut short (allennlp --recover)
# minilm-nogates: the minilm recipe with the selective connection's gates off (the next shipped candidate);
# minilm-distilled: the minilm recipe learning the accurate model's tag distributions too (`make teacher` first, ~45 min);
# minilm-text: the shipped default trained further on EWT train plus public-domain books labeled by the accurate model
#   (`make teacher-text` first, ~25 min; then 3 epochs, ~80 min);
# minilm-gum: the same on EWT train plus UD English GUM's CC BY and public-domain text (`make teacher-gum`, ~13 min);
# minilm-l6: the minilm recipe over all 6 MiniLM layers (the accurate model's CPU route, ~2.5 h: SRL_RECOVER=1 to go on);
# minilm (models/ewt-english.tar.gz, 15 epochs, about 85 minutes on this 2-core CPU): the first 3 layers of MiniLM
#   (`make minilm`) fine-tuned under 2 selective-connection layers per predicate with a CRF output and the
#   predicate-and-sense head, two threads;
# glove (models/ewt-english-glove.tar.gz, about 65 minutes): the selective-connection recipe over GloVe 6B
#   50-d words (`make glove`), one thread.
# Trains on the bundled EWT CoNLL-2012 train file (at most SRL_BUDGET_MINUTES, default 90), exports the model in
# half precision with its F1 per precision on dev recorded, and scores it on the bundled dev file with gold and with predicted predicates (srl_zoo's
# metric and srl-eval.pl), writing the error-analysis report.
set -euo pipefail
cd "$(dirname "$0")/.."
run=${1:-runs/shipped}
model=${2:-minilm}
python=${PYTHON:-.venv/bin/python}
dev=data/ewt/conll2012/dev.gold_conll.gz
case "$model" in
    minilm) make minilm; threads=2; name=ewt-english.tar.gz
            config=training_configs/recommended/minilm_l3_sc_crf_conll2012.jsonnet ;;
    minilm-nogates) make minilm; threads=2; name=ewt-english.tar.gz
            config=training_configs/recommended/minilm_l3_sc_nogates_crf_conll2012.jsonnet ;;
    minilm-distilled) make minilm teacher; threads=2; name=ewt-english.tar.gz
            config=training_configs/recommended/minilm_l3_sc_crf_distilled_conll2012.jsonnet ;;
    minilm-text) make minilm teacher-text; threads=2; name=ewt-english.tar.gz
            config=training_configs/recommended/minilm_l3_sc_crf_distilled_text_conll2012.jsonnet ;;
    minilm-gum) make minilm teacher-gum; threads=2; name=ewt-english.tar.gz
            config=training_configs/recommended/minilm_l3_sc_crf_distilled_gum_conll2012.jsonnet ;;
    minilm-l6) make minilm; threads=2; name=ewt-english-l6.tar.gz
            config=training_configs/recommended/minilm_l6_sc_crf_conll2012.jsonnet ;;
    glove) make glove; threads=1; name=ewt-english-glove.tar.gz; export SRL_GLOVE=.cache/glove/glove.6B.50d.txt.gz
           config=training_configs/recommended/sc_bilstm_cpu_budget_predicates_conll2012.jsonnet ;;
    *) echo "model must be minilm, minilm-nogates, minilm-distilled, minilm-text, minilm-gum, minilm-l6 or glove, got $model" >&2
       exit 2 ;;
esac
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-$threads} SRL_BUDGET_MINUTES=${SRL_BUDGET_MINUTES:-90}
srl_zoo=("$python" -m srl_zoo.cli)
# a run cut short (a session's end, a killed process) goes on from its last finished epoch: SRL_RECOVER=1 bash ...
recover=()
if [ -n "${SRL_RECOVER:-}" ]; then recover=(--recover); fi
"${srl_zoo[@]}" train "$config" -s "$run" "${recover[@]}" --verbose >> "$run.log" 2>&1
# the F1 per precision on dev goes into the archive (`precision auto` takes a faster one only where it keeps the F1),
# and the temperature that calibrates its scores on dev; the model card's scores are float32's
"${srl_zoo[@]}" export "$run/model.tar.gz" "$run/$name" --measure-precision "$dev" --calibrate-scores "$dev"
"${srl_zoo[@]}" evaluate "$run/$name" "$dev" --precision float32 --output-dir "$run/dev" --report "$run/report" \
    2> "$run/dev.log"
"${srl_zoo[@]}" evaluate "$run/$name" "$dev" --precision float32 --output-dir "$run/dev_predicted" \
    --predicate-source predicted 2> "$run/dev_predicted.log"
echo "to ship: cp $run/$name models/ && cp -r $run/report/. docs/reports/ewt-english-dev/"
