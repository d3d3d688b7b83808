"""AMN's memory reading against a token-by-token loop: shared neighbours, missing ones, padding."""

import torch
from torch import nn

from srl_zoo.parts.frame_features.memory_reading import MemoryReading


class MaskedIdentity(nn.Module):
    """An encoder that returns its inputs with padding zeroed."""

    def forward(self, inputs: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        return inputs * mask.unsqueeze(-1)


def _reading(merge: str = "average") -> MemoryReading:
    torch.manual_seed(0)
    return MemoryReading(MaskedIdentity(), flag_dim=2, num_labels=5, label_dim=3, num_neighbours=3, merge=merge)


def test_encode_appends_the_flag_embedding_of_the_predicate():
    reading = _reading()
    words = torch.randn(2, 4, 6)
    flags = torch.tensor([[False, True, False, False], [True, False, False, False]])
    mask = torch.tensor([[True, True, True, False], [True, True, True, True]])
    encoded = reading.encode(words, flags, mask)
    assert encoded.shape == (2, 4, 8)
    assert torch.equal(encoded[0, 1, 6:], reading.flag_embedding.weight[1])
    assert torch.equal(encoded[0, 0, 6:], reading.flag_embedding.weight[0])
    assert torch.equal(encoded[:, :, :6], words * mask.unsqueeze(-1))
    assert torch.equal(encoded[0, 3], torch.zeros(8))


def test_read_is_the_average_over_present_neighbours_of_attention_over_their_tags():
    reading = _reading()
    generator = torch.Generator().manual_seed(1)
    rows, length, distinct, n_length, hidden = 2, 4, 3, 5, 8
    target = torch.randn(rows, length, hidden, generator=generator)
    target_mask = torch.tensor([[True] * 4, [True, True, False, False]])
    neighbours = torch.randn(distinct, n_length, hidden, generator=generator)
    neighbour_lengths = [5, 2, 3]
    neighbour_mask = torch.arange(n_length) < torch.tensor(neighbour_lengths).unsqueeze(1)
    tags = torch.randint(0, 5, (distinct, n_length), generator=generator)
    neighbour_of_row = torch.tensor([[0, 2, 0], [1, 2, 0]])  # row 0 has two neighbours (its third place unused)
    present = torch.tensor([[True, True, False], [True, True, True]])
    got = reading.read(target, target_mask, neighbours, neighbour_mask, tags, neighbour_of_row, present)
    assert got.shape == (rows, length, 3)
    labels = reading.label_embedding.weight
    for r in range(rows):
        for t in range(length):
            per_neighbour = []
            for k in range(3):
                if not present[r, k]:
                    continue
                entry = int(neighbour_of_row[r, k])
                real = neighbour_lengths[entry]
                scores = torch.stack([target[r, t] @ neighbours[entry, n] for n in range(real)])
                weights = torch.softmax(scores, dim=0)
                per_neighbour.append(sum(w * labels[tags[entry, n]] for n, w in enumerate(weights)))
            expected = torch.stack(per_neighbour).mean(0)
            assert torch.allclose(got[r, t], expected, atol=1e-5), (r, t)


def test_concat_keeps_each_place_and_a_missing_neighbour_gives_zeros():
    reading = _reading("concat")
    assert reading.output_dim == 9
    target = torch.randn(1, 2, 4)
    neighbours = torch.randn(1, 3, 4)
    got = reading.read(
        target,
        torch.ones(1, 2, dtype=torch.bool),
        neighbours,
        torch.ones(1, 3, dtype=torch.bool),
        torch.zeros(1, 3, dtype=torch.long),
        torch.tensor([[0, 0, 0]]),
        torch.tensor([[True, False, False]]),
    )
    assert torch.allclose(got[0, :, :3], reading.label_embedding.weight[0].expand(2, 3), atol=1e-6)
    assert torch.equal(got[0, :, 3:], torch.zeros(2, 6))
