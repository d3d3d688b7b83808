"""The memory bank as index tensors: each sentence's token ids and length, each entry's sentence, predicate and tag
ids, the tags the model's labels lack remembered as outside any argument."""

from dataclasses import dataclass

import torch

from srl_zoo.amn.memory_bank import MemoryBank
from srl_zoo.amn.memory_words import MemoryWords


@dataclass
class BankIndex:
    """The bank's index tensors (`index_bank`).

    # Parameters

    tokens : `(sentences, longest)` each bank sentence's token ids (padded).
    lengths : `(sentences,)` each bank sentence's length.
    sentence : `(entries,)` each entry's sentence.
    predicate : `(entries,)` each entry's predicate index.
    tags : `(entries, longest)` each entry's tag ids (padded).
    """

    tokens: torch.Tensor
    lengths: torch.Tensor
    sentence: torch.Tensor
    predicate: torch.Tensor
    tags: torch.Tensor


def index_bank(bank: MemoryBank, words: MemoryWords, tag_ids: dict[str, int]) -> BankIndex:
    """The index tensors of `bank`, its words indexed by `words` and its tags by `tag_ids` (a tag the model's
    labels lack, where its vocabulary read fewer sentences than the bank, is `O`'s id)."""
    token_ids = words.index(bank.words)
    longest = token_ids.size(1)
    tags = torch.zeros(len(bank), longest, dtype=torch.long)
    outside = tag_ids.get("O", 0)
    for entry, entry_tags in enumerate(bank.tags):
        tags[entry, : len(entry_tags)] = torch.tensor([tag_ids.get(tag, outside) for tag in entry_tags])
    return BankIndex(
        token_ids,
        torch.tensor([len(sentence) for sentence in bank.words]),
        torch.tensor(bank.sentence_of),
        torch.tensor(bank.predicates),
        tags,
    )
