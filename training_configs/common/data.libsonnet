// Data paths. By default the English Web Treebank files bundled under data/ewt/ (CC BY-SA 4.0, see
// data/README.md) in the config's format, found relative to this file, so a config runs as written
// from any directory. SRL_TRAIN_DATA / SRL_DEV_DATA override them (allennlp passes environment
// variables to jsonnet as ext vars):
//   export SRL_TRAIN_DATA=/data/conll05/train.txt SRL_DEV_DATA=/data/conll05/dev.txt
// Importing srl_zoo (`--include-package srl_zoo`) defines both as '' when they are unset, and ''
// means "the bundled file" (jsonnet has no optional ext vars); without the plugin, an unset one
// stops jsonnet with "undefined external variable: SRL_TRAIN_DATA".
local suffix = 'common/data.libsonnet';
local here = std.thisFile;
assert std.endsWith(here, suffix) : 'data.libsonnet must stay at training_configs/' + suffix + ', read as ' + here;
local bundled = std.substr(here, 0, std.length(here) - std.length(suffix)) + '../data/ewt/';
local files = {
  conll2005: { train: 'conll2005/train.txt.gz', dev: 'conll2005/dev.txt.gz' },
  conll2012: { train: 'conll2012/train.gold_conll.gz', dev: 'conll2012/dev.gold_conll.gz' },
  conll2009: { train: 'conll2009/train.txt.gz', dev: 'conll2009/dev.txt.gz' },
};
local path(variable, format, split) =
  local given = std.extVar(variable);
  if given != '' then given
  else if std.objectHas(files, format) then bundled + files[format][split]
  else error 'no bundled ' + split + ' data in format ' + format + '; set ' + variable;
{
  train(format):: path('SRL_TRAIN_DATA', format, 'train'),
  dev(format):: path('SRL_DEV_DATA', format, 'dev'),
  reader(format): { type: format },
}
