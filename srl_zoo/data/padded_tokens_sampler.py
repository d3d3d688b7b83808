"""A batch sampler that bounds each batch by its padded size in the units the model pays for: word pieces
for a text field read by a word-piece indexer, words otherwise."""

from collections.abc import Iterable, Sequence

from allennlp.data.instance import Instance
from allennlp.data.samplers import BatchSampler, MaxTokensBatchSampler
from allennlp.data.samplers.bucket_batch_sampler import add_noise_to_value


def padded_length(instance: Instance, field_name: str) -> int:
    """The longest padding length of `instance`'s field `field_name` (indexed): for a text field under
    a word-piece indexer (`word_pieces`), its word pieces (`len` gives its words)."""
    lengths = instance.fields[field_name].get_padding_lengths()
    return max(lengths.values(), default=0)


@BatchSampler.register("max_padded_tokens_sampler")
class MaxPaddedTokensBatchSampler(MaxTokensBatchSampler):
    """`max_tokens_sampler` that measures an instance by the longest padding length of its `sorting_keys`
    fields instead of their `len`: for words read as word pieces, the word pieces. A 4-word sentence of 160
    word pieces (a URL, a run of symbols) then counts 160, and is not batched with 120 other 4-word
    sentences into 120 × 160 padded pieces, which for MPNet-base under adapters took a training step past
    24 GB on a CPU (`max_tokens_sampler` counted that batch as 500).

    ```jsonnet
    "batch_sampler": {"type": "max_padded_tokens_sampler", "max_tokens": 500, "sorting_keys": ["tokens"]}
    ```

    # Parameters

    max_tokens : the most padded units (instances × the longest instance's size) in a batch.
    sorting_keys : the fields that measure an instance, sorted by the first; guessed when not given.
    padding_noise : the share of noise added to each size before sorting, so batches differ per epoch.
    """

    def get_batch_indices(self, instances: Sequence[Instance]) -> Iterable[list[int]]:
        """The batches, shuffled; an instance larger than `max_tokens` is a batch of its own (allennlp's
        sampler also yields an empty batch before it, dropped here)."""
        return [batch for batch in super().get_batch_indices(instances) if batch]

    def _argsort_by_padding(self, instances: Sequence[Instance]) -> tuple[list[int], list[list[int]]]:
        """Instance indices sorted by their noisy padded sizes, with the true sizes in that order."""
        if not self.sorting_keys:
            self._guess_sorting_keys(instances)
        sized = []
        for index, instance in enumerate(instances):
            missing = [name for name in self.sorting_keys or [] if name not in instance.fields]
            if missing:
                raise ValueError(f"sorting key {missing[0]!r} is not a field; the fields: {sorted(instance.fields)}")
            lengths = [padded_length(instance, name) for name in self.sorting_keys or []]
            noisy = [add_noise_to_value(length, self.padding_noise) for length in lengths]
            sized.append((noisy, lengths, index))
        sized.sort(key=lambda entry: entry[0])
        return [index for _, _, index in sized], [lengths for _, lengths, _ in sized]
