// The environment variables the configs read, each with its default. Importing srl_zoo
// (`--include-package srl_zoo`, `.allennlp_plugins`, or the `srl-zoo` command) defines every unset one
// as '' (jsonnet has no optional ext vars), and '' means the default below; `srl_zoo/config_defaults.py`
// lists them with their meaning. A value you set (export SRL_BUDGET_MINUTES=60) overrides it.
local given(name) = std.extVar(name);
local or(name, default) = if given(name) == '' then default else given(name);
{
  // SRL_BUDGET_MINUTES: wall-clock training budget; time_budget stops at the last epoch that fits
  budget_minutes(default):: std.parseJson(or('SRL_BUDGET_MINUTES', std.toString(default))),
  // SRL_GLOVE: a GloVe text file; srl_zoo points it at .cache/glove/glove.6B.50d.txt.gz when `make glove`
  // made that file, else '' = random vectors (still lowercased, so only the initialisation differs)
  glove:: if given('SRL_GLOVE') == '' then null else given('SRL_GLOVE'),
  // a JSON value (true, 4, ...) or a string from a variable, with its default
  json(name, default):: std.parseJson(or(name, std.toString(default))),
  string(name, default):: or(name, default),
}
