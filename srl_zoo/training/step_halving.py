"""DeepAtt's learning-rate schedule: constant, then halved at `start` steps and every `every` steps after."""

from typing import Optional

from allennlp.training.learning_rate_schedulers import LearningRateScheduler
from torch.optim import Optimizer


@LearningRateScheduler.register("step_halving")
class StepHalvingScheduler(LearningRateScheduler):
    """`lr = base · 0.5^k` where k counts the halvings done by batch step `n`.

    # Parameters

    optimizer : the optimizer whose learning rate it sets (the trainer gives it).
    start : first halving (DeepAtt: 400k steps).
    every : later halvings (DeepAtt: every 100k steps).
    last_epoch : the last epoch done when resuming (-1: a fresh start; the trainer's checkpoint restores it).
    """

    def __init__(self, optimizer: Optimizer, start: int = 400_000, every: int = 100_000, last_epoch: int = -1) -> None:
        self.start, self.every = start, every
        self._steps = 0
        super().__init__(optimizer, last_epoch)

    def step(self, metric: Optional[float] = None) -> None:
        pass

    def step_batch(self, batch_num_total: Optional[int] = None) -> None:
        self._steps = self._steps + 1 if batch_num_total is None else batch_num_total
        for group, base in zip(self.optimizer.param_groups, self.base_values, strict=False):
            group[self.param_group_field] = self.get_values_at(self._steps, base)

    def get_values_at(self, step: int, base: float) -> float:
        halvings = 0 if step < self.start else 1 + (step - self.start) // self.every
        return base * 0.5**halvings

    def get_values(self):
        return [self.get_values_at(self._steps, base) for base in self.base_values]
