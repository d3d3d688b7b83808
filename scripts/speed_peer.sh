#!/usr/bin/env bash
# A speed peer for `python -m benchmarks against_peer`: allennlp-models' BiLSTM `srl` model
# (training_configs/peers/srl_bilstm.jsonnet) with the vocabulary of the whole EWT train and dev files (its
# words and, what sets its speed, its 60-odd BIO tags), trained one epoch on the first 400 train sentences
# (a few minutes on two CPU threads): its layers, tag set and decoding are those of the leaderboard's row, so it
# labels at that row's speed; its F1 is not the row's. Needs `make install` (.cache/allennlp-models).
#   scripts/speed_peer.sh [OUTPUT_DIR]       # OUTPUT_DIR/run/model.tar.gz (default runs/speed-peer)
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=${1:-runs/speed-peer}
PY=.venv/bin/python
mkdir -p "$OUT"
"$PY" - "$OUT" <<'PYTHON'
import os, sys
from srl_zoo.leaderboard.peers import without_parse

out = sys.argv[1]
train = os.path.join(without_parse("data/ewt/conll2012/train.gold_conll.gz", f"{out}/data/train"), "train.gold_conll")
without_parse("data/ewt/conll2012/dev.gold_conll.gz", f"{out}/data/dev")
sentences = open(train, encoding="utf-8").read().split("\n\n")
os.makedirs(f"{out}/data/first-400", exist_ok=True)
with open(f"{out}/data/first-400/first-400.gold_conll", "w", encoding="utf-8") as handle:
    handle.write("\n\n".join(sentences[:400]) + "\n\n")
PYTHON
PEER=$(pwd)/training_configs/peers/srl_bilstm.jsonnet
cat > "$OUT/vocabulary.jsonnet" <<EOF
(import '$PEER') + { train_data_path: '$OUT/data/train', validation_data_path: '$OUT/data/dev' }
EOF
cat > "$OUT/train.jsonnet" <<EOF
(import '$PEER') + {
  train_data_path: '$OUT/data/first-400', validation_data_path: null,
  vocabulary: { type: 'from_files', directory: '$OUT/vocabulary.tar.gz' },
  trainer+: { num_epochs: 1, validation_metric: '-loss' },
}
EOF
export PYTHONPATH=.cache/allennlp-models
.venv/bin/allennlp build-vocab "$OUT/vocabulary.jsonnet" "$OUT/vocabulary.tar.gz" -f \
  --include-package allennlp_models.structured_prediction
.venv/bin/allennlp train "$OUT/train.jsonnet" -s "$OUT/run" -f --include-package allennlp_models.structured_prediction
echo "$OUT/run/model.tar.gz"
