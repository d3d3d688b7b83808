// Data paths. By default the English Web Treebank files bundled under data/ewt/ (CC BY-SA 4.0, see
// data/README.md) in the config's format, found relative to this file, so a config runs as written
// from any directory. SRL_TRAIN_DATA / SRL_DEV_DATA override them (allennlp passes environment
// variables to jsonnet as ext vars):
//   export SRL_TRAIN_DATA=/data/conll05/train.txt SRL_DEV_DATA=/data/conll05/dev.txt
// Importing srl_zoo (`--include-package srl_zoo`, `srl-zoo train`) defines every variable the configs
// read as '' when it is unset, and '' means the default (jsonnet has no optional ext vars); without
// the plugin, an unset one stops jsonnet with "undefined external variable: SRL_TRAIN_DATA".
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
// SRL_TRAIN_TREES / SRL_DEV_TREES: dependency trees of the same sentences (CoNLL-U or CoNLL-2009) for
// LISA's syntax head; '' = the bundled EWT trees (data/ewt/conll2009/), which fit only the bundled data.
local trees(variable, data_variable, split) =
  local given = std.extVar(variable);
  if given != '' then given
  else if std.extVar(data_variable) == '' then bundled + files.conll2009[split]
  else error variable + ' is unset: set it to the dependency trees (CoNLL-U or CoNLL-2009) of ' + data_variable
             + ' (the bundled trees fit only the bundled data)';
{
  train_trees():: trees('SRL_TRAIN_TREES', 'SRL_TRAIN_DATA', 'train'),
  dev_trees():: trees('SRL_DEV_TREES', 'SRL_DEV_DATA', 'dev'),
  // SRL_TEACHER: a teacher's tag distributions for the training data (srl_zoo sets it to `make teacher`'s file)
  teacher():: std.extVar('SRL_TEACHER'),
  train(format):: path('SRL_TRAIN_DATA', format, 'train'),
  dev(format):: path('SRL_DEV_DATA', format, 'dev'),
  reader(format): { type: format },
}
