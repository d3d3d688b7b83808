"""Word-piece indexing of a CoNLL file's sentences: allennlp's `pretrained_transformer_mismatched` indexer (one
Hugging Face tokenizer call per word) against srl_zoo's `word_pieces` indexer (`srl_zoo/pretrained/
word_piece_indexer.py`: the runtime's `WordPieces`, one call per sentence), measured alternately in one run, the best
of 3 each, and checked to give the same indices for every sentence (a benchmark).

    python -m benchmarks wordpieces data/ewt/conll2012/dev.gold_conll.gz [--transformer .cache/minilm]
        [--max-length 512] [--sentences N]
"""

import argparse

from allennlp.data import Token, Vocabulary
from allennlp.data.token_indexers import PretrainedTransformerMismatchedIndexer, TokenIndexer

from benchmarks.timing import best_seconds
from srl_zoo.data.format_detection import detect_format
from srl_zoo.data.formats import READERS
from srl_zoo.pretrained.word_piece_indexer import WordPieceIndexer


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("data")
    parser.add_argument("--transformer", default=".cache/minilm")
    parser.add_argument("--max-length", type=int, default=512, help="the indexers' max_length (0: none)")
    parser.add_argument("--sentences", type=int, default=0, help="the first N sentences (0: all)")
    args = parser.parse_args()
    max_length = args.max_length or None
    sentences = [[Token(word) for word in s.tokens] for s in READERS[detect_format(args.data)](args.data)]
    sentences = sentences[: args.sentences or None]
    words = sum(len(s) for s in sentences)
    indexers: dict[str, TokenIndexer] = {
        "allennlp's pretrained_transformer_mismatched": PretrainedTransformerMismatchedIndexer(
            args.transformer, max_length=max_length
        ),
        "srl_zoo's word_pieces": WordPieceIndexer(args.transformer, max_length),
    }
    vocabulary = Vocabulary()
    indexed = {name: [i.tokens_to_indices(s, vocabulary) for s in sentences] for name, i in indexers.items()}
    mine, theirs = indexed.values()
    differing = sum(one != other for one, other in zip(mine, theirs, strict=True))
    best = {
        name: best_seconds(lambda indexer=indexer: [indexer.tokens_to_indices(s, vocabulary) for s in sentences])
        for name, indexer in indexers.items()
    }
    for name, seconds in best.items():
        print(f"{name}: {words / seconds:,.0f} words/s ({seconds:.2f} s for {len(sentences)} sentences)")
    names = list(best)
    print(f"speed-up: {best[names[0]] / best[names[1]]:.1f}x; sentences indexed differently: {differing} of "
          f"{len(sentences)} (max_length {max_length})")  # fmt: skip


if __name__ == "__main__":
    main()
