"""Labeling without allennlp: an archive read into the plain parts (`srl_zoo.parts`), text to frames."""
