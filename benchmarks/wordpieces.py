"""Word-piece indexing of a CoNLL file's sentences: allennlp's per-word loop against srl_zoo's batched
split (`srl_zoo/pretrained/batched_wordpieces.py`), measured alternately in one run, the best of 3 each,
and checked to give the same pieces (a benchmark).

    python -m benchmarks wordpieces data/ewt/conll2012/dev.gold_conll.gz [--transformer .cache/minilm]
"""

import argparse

from allennlp.data.tokenizers import PretrainedTransformerTokenizer

from benchmarks.timing import best_seconds
from srl_zoo.data.format_detection import detect_format
from srl_zoo.data.formats import READERS
from srl_zoo.pretrained.batched_wordpieces import batched_intra_word_tokenize, use_batched_wordpieces


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("data")
    parser.add_argument("--transformer", default=".cache/minilm")
    parser.add_argument("--sentences", type=int, default=2000)
    args = parser.parse_args()
    use_batched_wordpieces()
    loop = batched_intra_word_tokenize.replaced  # allennlp's own
    tokenizer = PretrainedTransformerTokenizer(args.transformer)
    sentences = [s.tokens for s in READERS[detect_format(args.data)](args.data)][: args.sentences]
    words = sum(len(s) for s in sentences)
    functions = {"allennlp (one call per word)": loop, "srl_zoo (one call per sentence)": batched_intra_word_tokenize}
    best = {
        name: best_seconds(lambda function=function: [function(tokenizer, sentence) for sentence in sentences])
        for name, function in functions.items()
    }
    same = all(
        [(t.text_id, t.text) for t in loop(tokenizer, s)[0]]
        == [(t.text_id, t.text) for t in batched_intra_word_tokenize(tokenizer, s)[0]]
        and loop(tokenizer, s)[1] == batched_intra_word_tokenize(tokenizer, s)[1]
        for s in sentences
    )
    for name, seconds in best.items():
        print(f"{name}: {words / seconds:,.0f} words/s ({seconds:.2f} s for {len(sentences)} sentences)")
    names = list(best)
    print(f"speed-up: {best[names[0]] / best[names[1]]:.1f}x; same pieces and offsets: {same}")


if __name__ == "__main__":
    main()
