// The accurate model trained further on one GPU: ../accurate/mpnet_lora_sc_crf_continued_conll2012.jsonnet (from
// the shipped models/ewt-english-accurate.tar.gz, half the recipe's rates, bfloat16 autocast) with
// ../common/gpu.libsonnet, in batches of up to 2,000 padded word pieces instead of the CPU's 500 (about the
// recipe's ~1200-word batches, which took 23-27 s an epoch on an H200: a GPU's cost is per batch, not per piece)
// and 10 epochs, stopped earlier by the time budget (SRL_BUDGET_MINUTES), keeping the last two epochs' weights
// (allennlp's default: the device keeps nothing, and only the archive comes back). It is the default CONFIG of
// `bash scripts/device/train_accurate.sh train`; on an H200 (2026-11-30, docs/gpu.md) its 10 epochs took 23-27 s
// each, peak GPU memory 3.6 GiB, and took the shipped 81.07 archive to 81.44 (its 6th epoch).
(import '../accurate/mpnet_lora_sc_crf_continued_conll2012.jsonnet') + (import '../common/gpu.libsonnet') + {
  data_loader+: { batch_sampler+: { max_tokens: 2000 } },
  trainer+: { num_epochs: 10, checkpointer: { keep_most_recent_by_count: 2 } },
}
