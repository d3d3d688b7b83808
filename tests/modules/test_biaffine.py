import torch

from srl_zoo.parts.layers.biaffine import LabeledBilinear


def test_labeled_bilinear_matches_brute_force():
    torch.manual_seed(0)
    bilinear = LabeledBilinear(left_dim=3, right_dim=4, num_labels=5)
    left, right = torch.randn(2, 6, 3), torch.randn(2, 7, 4)
    scores = bilinear(left, right)
    assert scores.shape == (2, 6, 7, 5)
    for b in range(2):
        for i in range(6):
            for j in range(7):
                x, y = torch.cat([left[b, i], torch.ones(1)]), torch.cat([right[b, j], torch.ones(1)])
                expected = torch.stack([x @ bilinear.weight[label] @ y for label in range(5)])
                assert torch.allclose(scores[b, i, j], expected, atol=1e-5)


def test_labeled_bilinear_with_no_left_items():
    bilinear = LabeledBilinear(left_dim=3, right_dim=4, num_labels=2)
    assert bilinear(torch.randn(2, 0, 3), torch.randn(2, 7, 4)).shape == (2, 0, 7, 2)


def test_labeled_bilinear_paired_scores_each_left_item_with_its_own_right_items():
    torch.manual_seed(0)
    bilinear = LabeledBilinear(3, 4, 5)
    left, right = torch.randn(2, 3, 3), torch.randn(2, 3, 6, 4)  # (batch, left, dim), (batch, left, right, dim)
    got = bilinear.paired(left, right)
    assert got.shape == (2, 3, 6, 5)
    for b in range(2):
        for i in range(3):
            x = torch.cat([left[b, i], torch.ones(1)])
            for j in range(6):
                y = torch.cat([right[b, i, j], torch.ones(1)])
                expected = torch.stack([x @ bilinear.weight[label] @ y for label in range(5)])
                assert torch.allclose(got[b, i, j], expected, atol=1e-5)
