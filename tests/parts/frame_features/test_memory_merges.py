"""AMN's merges against a token-by-token reference, and padding that must not leak into them."""

import math

import pytest
import torch

from srl_zoo.parts.frame_features.memory_merges import MERGES, merge_memory, merged_dim


def reference(scores, neighbour_mask, labels, target_mask, merge):
    """Loops over rows, target tokens and neighbours, with Python softmaxes over the real tokens only."""
    rows, m, length, n_len = scores.shape
    out = []
    for r in range(rows):
        present = [k for k in range(m) if neighbour_mask[r, k].any()]
        row = []
        for t in range(length):
            if merge == "flat":
                pairs = [(k, n) for k in range(m) for n in range(n_len) if neighbour_mask[r, k, n]]
                z = sum(math.exp(scores[r, k, t, n]) for k, n in pairs)
                vector = sum((math.exp(scores[r, k, t, n]) / z) * labels[r, k, n] for k, n in pairs)
                row.append(vector if pairs else torch.zeros(labels.size(-1)))
                continue
            per = []
            for k in range(m):
                real = [n for n in range(n_len) if neighbour_mask[r, k, n]]
                z = sum(math.exp(scores[r, k, t, n]) for n in real)
                per.append(
                    sum((math.exp(scores[r, k, t, n]) / z) * labels[r, k, n] for n in real)
                    if real
                    else torch.zeros(labels.size(-1))
                )
            if merge == "concat":
                row.append(torch.cat(per))
            elif merge == "average":
                row.append(sum(per[k] for k in present) / len(present) if present else torch.zeros(labels.size(-1)))
            else:  # weighted: softmax over neighbours of the mean similarity over real (target, neighbour) pairs
                means = {}
                for k in present:
                    pairs = [
                        scores[r, k, tt, n]
                        for tt in range(length)
                        if target_mask[r, tt]
                        for n in range(n_len)
                        if neighbour_mask[r, k, n]
                    ]
                    means[k] = sum(pairs) / len(pairs)
                z = sum(math.exp(v) for v in means.values())
                row.append(sum(math.exp(means[k]) / z * per[k] for k in present) if present else per[0] * 0)
        out.append(torch.stack(row))
    return torch.stack(out)


def random_inputs(seed=0):
    generator = torch.Generator().manual_seed(seed)
    rows, m, length, n_len, dim = 3, 3, 4, 5, 2
    scores = torch.randn(rows, m, length, n_len, generator=generator, dtype=torch.float64)
    lengths = torch.tensor([[5, 2, 0], [3, 3, 1], [0, 0, 0]])  # a missing neighbour; a row with none
    neighbour_mask = torch.arange(n_len) < lengths.unsqueeze(-1)
    labels = torch.randn(rows, m, n_len, dim, generator=generator, dtype=torch.float64)
    target_mask = torch.arange(length) < torch.tensor([4, 2, 3]).unsqueeze(1)
    return scores, neighbour_mask, labels, target_mask


@pytest.mark.parametrize("merge", MERGES)
def test_merges_equal_the_reference(merge):
    scores, neighbour_mask, labels, target_mask = random_inputs()
    got = merge_memory(scores, neighbour_mask, labels, target_mask, merge)
    assert got.shape[-1] == merged_dim(2, 3, merge)
    assert torch.allclose(got, reference(scores, neighbour_mask, labels, target_mask, merge))


@pytest.mark.parametrize("merge", MERGES)
def test_padding_of_neighbours_changes_nothing(merge):
    """The authors' code let padded neighbour tokens take attention; here their scores and labels are irrelevant."""
    scores, neighbour_mask, labels, target_mask = random_inputs(1)
    before = merge_memory(scores, neighbour_mask, labels, target_mask, merge)
    noisy_scores = scores.masked_fill(~neighbour_mask.unsqueeze(2), 50.0)
    noisy_labels = labels.masked_fill(~neighbour_mask.unsqueeze(-1), 7.0)
    after = merge_memory(noisy_scores, neighbour_mask, noisy_labels, target_mask, merge)
    assert torch.allclose(before, after)


def test_unknown_merge_is_a_clear_error():
    with pytest.raises(ValueError, match="merge must be one of"):
        merged_dim(8, 4, "sum")
