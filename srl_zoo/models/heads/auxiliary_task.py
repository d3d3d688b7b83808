"""The registrable auxiliary task: an extra loss (with metrics) on the sentence encodings."""

from typing import Optional

import torch
from allennlp.common import Registrable
from torch import nn

from srl_zoo.modules.frame_scorers import EncodedSentences
from srl_zoo.parts.batch_inputs import BatchInputs


class AuxiliaryTask(nn.Module, Registrable):
    """A supervised task that an encoder or scorer contributes besides SRL, e.g. LISA's dependency
    parse (arcs and labels). The Model composes them from its config (`auxiliary_tasks`, a name →
    task mapping), adds each task's weighted loss, and reports its metrics with the name as prefix.

    `forward(sentences, mask, inputs, update_metrics)` returns the weighted loss, or `None` when the
    batch has no gold annotation for the task (e.g. raw text).
    """

    def forward(
        self, sentences: EncodedSentences, mask: torch.Tensor, inputs: BatchInputs, update_metrics: bool = True
    ) -> Optional[torch.Tensor]:
        raise NotImplementedError

    def get_metrics(self, reset: bool = False) -> dict[str, float]:
        return {}
