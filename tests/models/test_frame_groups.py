"""Frame groups cover every frame once, in order, within the budget (brute force over small shapes)."""

import itertools

from srl_zoo.parts.scorers.frame_groups import frame_groups


def test_groups_partition_the_frames_within_the_budget():
    for batch, frames, length, budget in itertools.product([1, 2, 5], [0, 1, 3, 17], [1, 7, 40], [1, 50, 400, 10**6]):
        groups = frame_groups(batch, frames, length, budget)
        covered = [f for group in groups for f in range(frames)[group]]
        assert covered == list(range(frames))
        for group in groups:
            size = group.stop - group.start
            assert size == 1 or batch * size * length <= budget
        if frames and batch * frames * length <= budget:
            assert len(groups) == 1
    assert frame_groups(3, 0, 10) == [slice(0, 0)]
