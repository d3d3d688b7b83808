// Data paths come from environment variables (allennlp passes them to jsonnet as ext vars):
//   export SRL_TRAIN_DATA=/path/to/train.txt SRL_DEV_DATA=/path/to/dev.txt
// If one is unset, jsonnet stops with "undefined external variable: SRL_TRAIN_DATA" (or SRL_DEV_DATA).
{
  train: std.extVar('SRL_TRAIN_DATA'),
  dev: std.extVar('SRL_DEV_DATA'),
  reader(format): { type: format },
}
