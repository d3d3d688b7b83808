// The CPU-budget AMN (small.libsonnet) on CoNLL-2009: the memory with edit-distance neighbours and the
// average merge. The ablations (memory off, other selectors and merges; the merge sets the encoder's
// input width) are configs of their own that call small.libsonnet with `memory`, `selector` and `merge`:
// scripts/run_amn_ablation.sh writes one per run. A file for the training neighbours (reused across
// runs): -o '{"model.frame_features.neighbour_cache": "runs/neighbours.json"}'.
local small = import 'small.libsonnet';
small('conll2009', { memory: true, selector: 'edit_distance', merge: 'average' })
