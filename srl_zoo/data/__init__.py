"""Data: pure-Python CoNLL formats (`formats`), the frames field and the registered dataset readers
(`dataset_readers`, imported by `srl_zoo.plugin`: this package imports nothing, so the runtime reads the
formats without allennlp)."""
