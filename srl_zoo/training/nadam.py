"""Adam with Nesterov momentum (`torch.optim.NAdam`) as an allennlp optimizer, LISA's choice."""

from typing import Any, Optional

import torch
from allennlp.training.optimizers import Optimizer, make_parameter_groups


@Optimizer.register("nadam")
class NadamOptimizer(Optimizer, torch.optim.NAdam):
    """`torch.optim.NAdam` registered as `"nadam"` (allennlp 2.10 has none). LISA: lr 0.04 under a
    Noam warm-up, betas (0.9, 0.98), eps 1e-12.

    # Parameters

    model_parameters : the model's named parameters (the trainer gives them).
    parameter_groups : `[[regexes], {option: value}]` pairs giving the parameters the regexes match their own
        options (allennlp's parameter groups).
    lr : the learning rate.
    betas : the decay rates of the gradient's running mean and of its square's.
    eps : the term added to the denominator for numerical stability.
    weight_decay : L2 penalty on the weights.
    momentum_decay : the decay of the Nesterov momentum's schedule (torch's `momentum_decay`).
    """

    def __init__(
        self,
        model_parameters: list[tuple[str, torch.nn.Parameter]],
        parameter_groups: Optional[list[tuple[list[str], dict[str, Any]]]] = None,
        lr: float = 0.002,
        betas: tuple[float, float] = (0.9, 0.999),
        eps: float = 1e-08,
        weight_decay: float = 0.0,
        momentum_decay: float = 0.004,
    ) -> None:
        super().__init__(
            params=make_parameter_groups(model_parameters, parameter_groups),
            lr=lr,
            betas=betas,
            eps=eps,
            weight_decay=weight_decay,
            momentum_decay=momentum_decay,
        )
