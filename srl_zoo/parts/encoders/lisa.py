"""LISA (Strubell et al. 2018): a transformer whose attention head in one layer follows a dependency parse (plain
torch; `srl_zoo.modules.lisa` registers it as the `lisa` encoder)."""

from typing import Any, Optional

import torch
from torch import nn

from srl_zoo.config_fit import SENTENCE_ENCODER, ConfigNeed, setting
from srl_zoo.parts.batch_inputs import BatchInputs
from srl_zoo.parts.encoders.encoded_sentences import EncodedSentences, SyntaxOutputs
from srl_zoo.parts.encoders.self_attention import SelfAttentionEncoder
from srl_zoo.parts.layers.biaffine import ArcScorer, zero_based_heads
from srl_zoo.parts.layers.transformer_layer import TransformerLayer

PARSE_SOURCES = ("predicted", "given")


class LayerNorms(nn.Module):
    """`count` independent LayerNorms of width `dim` in one module; `forward(x, index)` applies the index-th.

    One module rather than a list of `nn.LayerNorm`s: these normalise side outputs (what the heads
    read), not the residual stream, and allennlp's NormalizationBiasVerification, which looks at the
    order in which modules run, would otherwise take each for a biased layer before the next layer's norm.
    """

    def __init__(self, count: int, dim: int) -> None:
        super().__init__()
        self.scales = nn.Parameter(torch.ones(count, dim))
        self.shifts = nn.Parameter(torch.zeros(count, dim))

    def forward(self, inputs: torch.Tensor, index: int) -> torch.Tensor:
        return nn.functional.layer_norm(inputs, inputs.shape[-1:], self.scales[index], self.shifts[index])


class LisaEncoder(SelfAttentionEncoder):
    """Transformer layers (pre-LayerNorm, leaky-ReLU feed-forward, sinusoidal positions) with LISA's
    syntax head: the output of layer `parse_layer` feeds a biaffine arc scorer (MLP 500), and in the
    next layer the last attention head's weights ARE the parse: during training the gold parse
    (one-hot rows, when the batch has `dependency_heads`), at test the softmax of the predicted arc
    scores, or a parse given with the data when `parse_source` is `"given"` or a sentence carries
    injected heads (`SentenceMetadata.heads_given`). The parser learns only from its own loss (the
    `dependency_parse` auxiliary task reads `EncodedSentences.syntax`).

    Layer indices are 0-based positions in `EncodedSentences.layers` (each layer's LayerNorm-ed
    output): LISA's code reads POS/predicates from layer 3 (index 2), parses from layer 5 (index 4,
    the parse attention is then a head of layer 6) and labels roles from the last layer.

    # Parameters

    input_dim : width of the word embeddings (GloVe 100 in the paper; projected to `hidden_dim`).
    hidden_dim : model width (200).
    num_layers : number of transformer layers (12 in the authors' code).
    num_heads : attention heads per layer (8: head width 25).
    ffn_hidden_dim : width of the feed-forward hidden layers (800: 200→800→800→200 as in the code).
    ffn_hidden_layers : number of feed-forward hidden layers (2).
    residual_dropout : dropout on the input and on each sub-layer's output before its residual sum (0.2).
    attention_dropout : dropout on the attention weights (0.1).
    relu_dropout : dropout after the feed-forward's leaky ReLU (0.1).
    pre_norm : pre-LayerNorm as in the code; false for post-norm.
    parse_layer : index of the layer the arc scorer reads (4); `None` removes the syntax head (the
        `sa_baseline`: the same transformer without syntax).
    arc_mlp_dim : width of the arc scorer's MLPs (500).
    parse_source : where the parse attention comes from when not training: `"predicted"` (the
        parser's softmax) or `"given"` (the batch's `dependency_heads`, e.g. a gold or external
        parse read with the data; sentences without heads keep the predicted parse).
    scale_input : multiply the projected input by √hidden_dim (LISA: false).
    use_timing_signal : add the sinusoidal timing signal to the input (LISA: true).
    """

    @classmethod
    def config_offers(cls, config: dict[str, Any]) -> dict[str, dict[str, Any]]:
        """Its layers, and a syntax head where `parse_layer` is set (`srl_zoo.config_fit`)."""
        layers = setting(cls, config, "num_layers")
        return {SENTENCE_ENCODER: {"layers": layers, "syntax_head": setting(cls, config, "parse_layer") is not None}}

    @classmethod
    def config_needs(cls, config: dict[str, Any]) -> list[ConfigNeed]:
        """The parse layer below the top one (the next layer holds the syntax head)."""
        parse_layer = setting(cls, config, "parse_layer")

        def problem(facts: dict[str, Any], where: str) -> Optional[str]:
            layers = facts.get("layers")
            if parse_layer is None or not isinstance(layers, int) or 0 <= parse_layer < layers - 1:
                return None
            return f"{parse_layer} is not below the top of the {layers} layers: use 0 to {layers - 2}"

        return [ConfigNeed(SENTENCE_ENCODER, "parse_layer", problem)]

    def __init__(
        self,
        input_dim: int,
        hidden_dim: int = 200,
        num_layers: int = 12,
        num_heads: int = 8,
        ffn_hidden_dim: int = 800,
        ffn_hidden_layers: int = 2,
        residual_dropout: float = 0.2,
        attention_dropout: float = 0.1,
        relu_dropout: float = 0.1,
        pre_norm: bool = True,
        parse_layer: Optional[int] = 4,
        arc_mlp_dim: int = 500,
        parse_source: str = "predicted",
        scale_input: bool = False,
        use_timing_signal: bool = True,
    ) -> None:
        # no input bias: in a pre-norm stack it would sit right before the first LayerNorm
        super().__init__(input_dim, hidden_dim, scale_input, use_timing_signal, residual_dropout, input_bias=False)
        if parse_source not in PARSE_SOURCES:
            raise ValueError(f"parse_source must be one of {PARSE_SOURCES}, got {parse_source!r}")
        if parse_layer is not None and not 0 <= parse_layer < num_layers - 1:
            raise ValueError(
                f"parse_layer must be between 0 and {num_layers - 2} (the next layer holds the parse head), "
                f"got {parse_layer}"
            )
        self.layers = nn.ModuleList(
            TransformerLayer(
                hidden_dim,
                num_heads,
                ffn_hidden_dim,
                residual_dropout,
                attention_dropout,
                relu_dropout,
                pre_norm,
                "leaky_relu",
                ffn_hidden_layers,
            )
            for _ in range(num_layers)
        )
        # pre-norm layers output an un-normalised residual stream: each exposed output gets its own LayerNorm
        self.output_norms = LayerNorms(num_layers, hidden_dim) if pre_norm else None
        self.parse_layer = parse_layer
        self.parse_source = parse_source
        self.arc_scorer = ArcScorer(hidden_dim, arc_mlp_dim, relu_dropout) if parse_layer is not None else None

    def set_parse_source(self, source: str) -> bool:
        """Attend to `source` parses when not training (`"predicted"` or `"given"`); whether this encoder
        has a syntax head to honour it (the frame scorer that holds it passes the Model's lever on)."""
        if source not in PARSE_SOURCES:
            raise ValueError(f"parse_source must be one of {PARSE_SOURCES}, got {source!r}")
        if self.arc_scorer is None:
            return False
        self.parse_source = source
        return True

    def forward(self, inputs: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        """`(batch, seq_len, input_dim)` -> `(batch, seq_len, hidden_dim)` (the parse from the parser)."""
        return self.encode(inputs, mask).top

    def forward_layers(self, inputs: torch.Tensor, mask: torch.Tensor) -> list[torch.Tensor]:
        return self.encode(inputs, mask).layers

    def encode(
        self, inputs: torch.Tensor, mask: torch.Tensor, context: Optional[BatchInputs] = None
    ) -> EncodedSentences:
        """Every layer's normalised output and, with a parse layer, its `syntax` (`SyntaxOutputs`: the arc
        scores, the parser's input states and the parse the next layer's head attended to).

        `context`: the batch's `dependency_heads (batch, seq_len)` (1-based, 0 = root), whether it is
        training, and per sentence whether its heads were given; None: no parse given, `self.training`.
        """
        mask = mask.bool()
        context = context or BatchInputs(training=self.training)
        keep = mask.unsqueeze(-1).to(inputs.dtype)
        hidden = self.input(inputs)
        layers: list[torch.Tensor] = []
        syntax: Optional[SyntaxOutputs] = None
        parse_attention: Optional[torch.Tensor] = None
        for index, layer in enumerate(self.layers):
            hidden = layer(hidden, mask, last_head_weights=parse_attention)
            output = self.output_norms(hidden, index) if self.output_norms is not None else hidden
            layers.append(output * keep)
            if index == self.parse_layer:
                arc_scores = self.arc_scorer(output, mask)  # type: ignore[misc]
                parse_attention = self._parse_attention(arc_scores, mask, context)
                syntax = SyntaxOutputs(arc_scores, output, parse_attention)
            else:
                parse_attention = None
        return EncodedSentences(layers, syntax)

    def _parse_attention(self, arc_scores: torch.Tensor, mask: torch.Tensor, context: BatchInputs) -> torch.Tensor:
        """Rows of attention weights `(batch, seq_len, seq_len)`: gold/given one-hot parses where they are
        to be used, the parser's softmax elsewhere."""
        weights = torch.softmax(arc_scores, dim=-1)
        heads = context.dependency_heads
        if heads is None:
            return weights
        use = self._sentences_using_given_heads(context, heads.size(0), heads.device)
        given = nn.functional.one_hot(zero_based_heads(heads), heads.size(1)).to(weights.dtype)
        return torch.where(use[:, None, None], given, weights)

    def _sentences_using_given_heads(self, context: BatchInputs, batch: int, device: torch.device) -> torch.Tensor:
        if context.training or self.parse_source == "given":
            return torch.ones(batch, dtype=torch.bool, device=device)
        return torch.tensor(context.heads_given(batch), dtype=torch.bool, device=device)
