// lisa_glove_conll2005 on several devices with allennlp's distributed trainer. SRL_CUDA_DEVICES lists
// them: "0,1" for two GPUs, "-1,-1" for two CPU (gloo) processes. Needs what lisa_glove_conll2005 needs.
local settings = import '../common/settings.libsonnet';
local distributed = import '../common/distributed.libsonnet';
local devices = [std.parseInt(d) for d in std.split(settings.string('SRL_CUDA_DEVICES', '0,1'), ',')];
(import 'lisa_glove_conll2005.jsonnet') + distributed(devices)
