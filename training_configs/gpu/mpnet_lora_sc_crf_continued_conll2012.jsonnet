// The accurate model trained further on one GPU: ../accurate/mpnet_lora_sc_crf_continued_conll2012.jsonnet (from
// the shipped models/ewt-english-accurate.tar.gz, half the recipe's rates, bfloat16 autocast) with
// ../common/accurate_gpu.libsonnet (the GPU mixin, batches of up to 2,000 padded word pieces instead of the CPU's 500,
// 10 epochs under the time budget, two checkpoints kept). It is the default CONFIG of
// `bash scripts/device/train_accurate.sh train`; on an H200 (2026-11-30, docs/gpu.md) its 10 epochs took 23-27 s
// each, peak GPU memory 3.6 GiB, and took the shipped 81.07 archive to 81.44 (its 6th epoch).
(import '../accurate/mpnet_lora_sc_crf_continued_conll2012.jsonnet') + (import '../common/accurate_gpu.libsonnet')
