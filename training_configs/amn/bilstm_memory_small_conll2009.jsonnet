// The CPU-budget AMN (small.libsonnet) on CoNLL-2009. SRL_AMN_MEMORY (true/false), SRL_AMN_SELECTOR
// (edit_distance, sif, relaxed_wmd, random) and SRL_AMN_MERGE (average, concat, weighted, flat) pick
// the ablation; SRL_AMN_CACHE: a file for the training neighbours (empty: none).
local small = import 'small.libsonnet';
local settings = import '../common/settings.libsonnet';
local cache = settings.string('SRL_AMN_CACHE', '');
small('conll2009', {
  memory: settings.json('SRL_AMN_MEMORY', true),
  selector: settings.string('SRL_AMN_SELECTOR', 'edit_distance'),
  merge: settings.string('SRL_AMN_MERGE', 'average'),
  neighbour_cache: if cache == '' then null else cache,
})
