"""A test helper: a tiny, randomly initialised BERT with its fast tokenizer, written to a directory (nothing is
downloaded), for the parts that run a transformer."""

import torch

SPECIAL = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"]
_LETTERS = "abcdefghijklmnopqrstuvwxyz"
#: a few words and every lowercase letter with and without `##`: most words split into several pieces
SPLITTING_PIECES = ["the", "dog", "is", "a", "un", "##be", "##lie"] + list(_LETTERS) + [f"##{c}" for c in _LETTERS]


def write_tiny_bert(
    directory: str, pieces: list[str], hidden: int = 8, layers: int = 1, lowercase: bool = True, positions: int = 512
) -> str:
    """A BERT over the special tokens + `pieces` (duplicates dropped), `hidden` wide and `layers` deep, with
    two token types, saved with its tokenizer to `directory`; returns `directory`."""
    from transformers import BertConfig, BertModel, BertTokenizerFast

    from srl_zoo.pretrained.transformers_version import transformers_5_or_later

    vocabulary = list(dict.fromkeys(SPECIAL + pieces))
    with open(f"{directory}/vocab.txt", "w", encoding="utf-8") as handle:
        handle.write("\n".join(vocabulary) + "\n")
    if transformers_5_or_later():  # the GPU image's: the vocabulary is given as a dict
        tokenizer = BertTokenizerFast(vocab={piece: i for i, piece in enumerate(vocabulary)}, do_lower_case=lowercase)
    else:
        tokenizer = BertTokenizerFast(vocab_file=f"{directory}/vocab.txt", do_lower_case=lowercase)
    assert len(tokenizer) == len(vocabulary), "the tokenizer did not read the vocabulary"
    tokenizer.save_pretrained(directory)
    config = BertConfig(
        vocab_size=len(vocabulary), hidden_size=hidden, num_hidden_layers=layers, num_attention_heads=2,
        intermediate_size=2 * hidden, max_position_embeddings=positions,
    )  # fmt: skip
    torch.manual_seed(0)
    BertModel(config).save_pretrained(directory)
    return directory
