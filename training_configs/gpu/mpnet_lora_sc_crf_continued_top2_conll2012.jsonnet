// The accurate model's top-two-layers route on one GPU: ../accurate/mpnet_lora_sc_crf_continued_top2_conll2012.jsonnet
// (from the shipped models/ewt-english-accurate.tar.gz, MPNet's layers 10 and 11 trained too at 2e-5, one warm-up
// and a linear decay, bfloat16 autocast) with ../common/accurate_gpu.libsonnet, as the continued GPU config
// (mpnet_lora_sc_crf_continued_conll2012.jsonnet: 23-27 s an epoch on an H200). Its archive holds the two layers
// (about 75 MiB in float32): `CONFIG=<this file> bash scripts/device/train_accurate.sh train` exports it in float16
// on the device (31 MiB in the rehearsal) before cutting it in pieces.
(import '../accurate/mpnet_lora_sc_crf_continued_top2_conll2012.jsonnet') + (import '../common/accurate_gpu.libsonnet')
