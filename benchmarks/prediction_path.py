"""Prediction with and without each speed-up of the prediction path, measured alternately in one run on one
thread (a benchmark): a sentence's word pieces from srl_zoo's `word_pieces` indexer (one tokenizer call per
sentence) against allennlp's `pretrained_transformer_mismatched` indexer (one call per word), BERT's self-attention
fused (`scaled_dot_product_attention`, srl_zoo's patch) against transformers' own, and the CRF's Viterbi over
allowed tag pairs only against every pair. The first N dev
sentences at their gold predicates through the `srl_zoo` predictor, batches of similar length, best of
`--rounds`; the tags of every setting are compared with those of the setting with no speed-up.

    python -m benchmarks prediction_path models/ewt-english.tar.gz data/ewt/conll2012/dev.gold_conll.gz
"""

import contextlib
import os
import shutil
import tempfile
from collections.abc import Callable, Iterator

import torch
from allennlp.data.token_indexers import PretrainedTransformerMismatchedIndexer, TokenIndexer
from allennlp.models.archival import load_archive
from allennlp.predictors import Predictor
from transformers.models.bert.modeling_bert import BertSelfAttention

import srl_zoo.plugin  # noqa: F401  (applies the patches)
from benchmarks.alternating_runs import best_of_alternating_runs, print_against
from benchmarks.arguments import archive_parser
from srl_zoo.archive_files import ARCHIVED_TRANSFORMER, extract_archive
from srl_zoo.data.gold_requests import gold_predicate_batches
from srl_zoo.parts.outputs import decoding
from srl_zoo.pretrained.fused_attention import fused_self_attention_forward
from srl_zoo.pretrained.word_piece_indexer import WordPieceIndexer


def allennlp_indexer(archive: str, ours: TokenIndexer, folder: str) -> TokenIndexer:
    """allennlp's mismatched indexer in place of `ours` (a `WordPieceIndexer`), over the archive's transformer files
    (the archive extracted into `folder`, checked as every archive is); `ours` itself where it reads no word pieces."""
    if not isinstance(ours, WordPieceIndexer):
        return ours
    extract_archive(archive, folder)
    return PretrainedTransformerMismatchedIndexer(
        os.path.join(folder, ARCHIVED_TRANSFORMER), max_length=ours.max_length
    )


@contextlib.contextmanager
def setting(
    indexers: dict[str, TokenIndexer], allennlp_s: TokenIndexer, word_pieces: bool, fused_attention: bool,
    sparse_viterbi: bool,
) -> Iterator[None]:  # fmt: skip
    """Turn each speed-up on or off for the block (`indexers`: the predictor's reader's, changed in place;
    `allennlp_s`: the indexer in place of srl_zoo's)."""
    forward, predecessors = BertSelfAttention.forward, decoding._sparse_predecessors
    ours = indexers["tokens"]
    if not word_pieces:
        indexers["tokens"] = allennlp_s
    if not fused_attention:
        BertSelfAttention.forward = fused_self_attention_forward.replaced  # type: ignore[attr-defined]
    if not sparse_viterbi:
        decoding._sparse_predecessors = lambda allowed: None  # every (from, to) pair
    try:
        yield
    finally:
        BertSelfAttention.forward, decoding._sparse_predecessors = forward, predecessors
        indexers["tokens"] = ours


SETTINGS = {
    "none": (False, False, False),
    "word_pieces indexer": (True, False, False),
    "fused attention": (False, True, False),
    "sparse CRF Viterbi": (False, False, True),
    "all three (the default)": (True, True, True),
}


def main() -> None:
    parser = archive_parser(__doc__)
    parser.add_argument("--sentences", type=int, default=500)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--precision", default="float32", choices=("float32", "bfloat16"))
    args = parser.parse_args()
    torch.set_num_threads(1)
    batches, tokens = gold_predicate_batches(args.data, sentences=args.sentences)
    predictor = Predictor.from_archive(load_archive(args.archive), "srl_zoo", extra_args={"precision": args.precision})
    predictor.predict_batch_json(batches[0])  # warm-up
    indexers = predictor._dataset_reader.token_indexers
    folder = tempfile.mkdtemp(prefix="prediction_path-")
    allennlp_s = allennlp_indexer(args.archive, indexers["tokens"], folder)

    def run_in(switches: tuple[bool, bool, bool]) -> Callable[[list], list]:
        def label(batch: list) -> list:
            with setting(indexers, allennlp_s, *switches):
                return predictor.predict_batch_json(batch)

        return label

    runs = {name: run_in(switches) for name, switches in SETTINGS.items()}
    best, tags = best_of_alternating_runs(runs, batches, tokens, args.rounds)
    print(f"{sum(map(len, batches))} sentences, {tokens} tokens, {args.precision}, one thread, best of {args.rounds}")
    print_against("none", best, tags)
    shutil.rmtree(folder)


if __name__ == "__main__":
    main()
