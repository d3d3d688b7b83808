"""`allennlp srl-label`: label a whole corpus with a trained model, with progress, resumably.

    allennlp srl-label model.tar.gz corpus.txt -o corpus.srl.jsonl [--cuda-device 0] [--output-format json]

Input: plain text, one document per line (split into sentences and words offline), or JSONL
(`.jsonl`/`.json`, or `--format jsonl`) whose lines are `{"text": "..."}` documents or the
`srl` predictor's inputs (`{"sentence": ...}`, `{"tokens": [...], "predicates"?, "heads"?}`), or a
CoNLL-2005, 2012 or 2009 file (`--format conll`, the kind told from the file, or named), whose
sentences are labeled at the file's predicates whatever format the model was trained on; a sentence
then counts as a line, numbered by its first line.
Output, one record per non-blank input line: `json` (`{"line": n, "sentences": [...]}`, sentences as
`srl_zoo.load(...)(text)` gives them, with character offsets; pre-tokenized inputs as the
predictor gives them), `allennlp_models` (`{"line": n, "sentences": [{"verbs", "words"}]}`) or
`conll2005` (props blocks, one per sentence) or `conll2009` (CoNLL-2009 rows, for dependency models).

Resumable: `OUTPUT.progress` is written before the output, and after every chunk of input lines the
output is flushed to disk and the record updated (atomically) with how many input lines and output
bytes are done; a rerun after a kill at any moment cuts the output back to the last complete chunk
and goes on from there, so the output equals that of an uninterrupted run. The record also holds the
input's real path, a SHA-256 of the lines already labeled and both formats: a rerun with another
input, changed lines or other formats is refused. A finished run removes its record; an output
without one (finished, or not written by srl-label) is never written over unless `--overwrite`.
`OUTPUT.lock` makes a second run on the same output fail at once. A line that cannot be labeled
(malformed JSON or fields, bad UTF-8, text that cannot be written, any error while labeling it) is
reported as `FILE:LINE: reason` and skipped (`--on-error stop` stops instead, after writing every
line before it).

Pipelined: `--workers N` processes read, split, tokenize and tensorize the input chunks ahead of the
model (`srl_zoo.labeling.prepared_chunks`; default 1 with a GPU, none on the CPU, where the model
takes >90% of the time and a worker only competes for the cores), and a writer thread renders and
writes each chunk while the model labels the next; the output is the same with any number of workers.

Several processes or machines: `--ray [ADDRESS]` labels on Ray (`srl_zoo.labeling.ray_corpus`): text, JSONL or
Parquet in (a file, a folder, a URI), the input cut into blocks of `--block-lines` lines (a Parquet row group, a
compressed file whole) that `--processes` actors of `--threads` threads label, each block into its own file of
the folder OUTPUT (JSONL or Parquet) beside a manifest; a rerun labels only the blocks whose files are missing, and
a line that cannot be labeled is an error record `{"line": n, "error": ...}`.
"""

import argparse

from allennlp.commands.subcommand import Subcommand

from srl_zoo.commands import corpus_labeling
from srl_zoo.commands.command_modules import command_parser
from srl_zoo.labeling.corpus import label_corpus


@Subcommand.register("srl-label")
class SrlLabel(Subcommand):
    def add_subparser(self, parser: argparse._SubParsersAction) -> argparse.ArgumentParser:
        return command_parser(parser.add_parser(self.name, help=corpus_labeling.DESCRIPTION), corpus_labeling)


__all__ = ["SrlLabel", "label_corpus"]  # label_corpus lives in srl_zoo.labeling.corpus
