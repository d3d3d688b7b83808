"""BERT (Devlin et al. 2019) in plain torch, computing what Hugging Face's `BertModel` computes for absolute
positions, with its state-dict names, so a BERT archive (MiniLM's) labels without transformers and gives the same
vectors whichever transformers version is installed or none."""

import math
from typing import Any, cast

import torch
from torch import nn
from torch.nn import functional

#: the activations of Hugging Face's `hidden_act` names this encoder computes
ACTIVATIONS = {
    "gelu": functional.gelu,
    "gelu_new": lambda x: functional.gelu(x, approximate="tanh"),
    "relu": functional.relu,
}


def is_plain_bert(config: dict[str, Any]) -> bool:
    """Whether the Hugging Face config `config` (its `config.json`) is a BERT this module computes."""
    return (
        config.get("model_type") == "bert"
        and config.get("position_embedding_type", "absolute") == "absolute"
        and config.get("hidden_act", "gelu") in ACTIVATIONS
        and not config.get("is_decoder", False)
    )


class BertEncoder(nn.Module):
    """Token, position and segment embeddings, then `num_hidden_layers` post-norm transformer layers, with
    `scaled_dot_product_attention`; no pooler (its weights, if given, are not read).

    # Parameters

    config : a Hugging Face BERT config (`vocab_size`, `hidden_size`, `num_hidden_layers`, `num_attention_heads`,
        `intermediate_size`, `max_position_embeddings`, `type_vocab_size`, `layer_norm_eps`, `hidden_act`).
    """

    def __init__(self, config: dict[str, Any]) -> None:
        super().__init__()
        width = config["hidden_size"]
        self.num_heads = config["num_attention_heads"]
        self.activation = ACTIVATIONS[config.get("hidden_act", "gelu")]
        epsilon = config.get("layer_norm_eps", 1e-12)
        self.embeddings = nn.ModuleDict(
            {
                "word_embeddings": nn.Embedding(config["vocab_size"], width),
                "position_embeddings": nn.Embedding(config["max_position_embeddings"], width),
                "token_type_embeddings": nn.Embedding(config.get("type_vocab_size", 2), width),
                "LayerNorm": nn.LayerNorm(width, eps=epsilon),
            }
        )
        inner = config["intermediate_size"]
        layers = [self._layer(width, inner, epsilon) for _ in range(config["num_hidden_layers"])]
        self.encoder = nn.ModuleDict({"layer": nn.ModuleList(layers)})

    @staticmethod
    def _layer(width: int, inner: int, epsilon: float) -> nn.ModuleDict:
        """One layer's parts under Hugging Face's names."""
        attention = nn.ModuleDict(
            {
                "self": nn.ModuleDict({name: nn.Linear(width, width) for name in ("query", "key", "value")}),
                "output": nn.ModuleDict(
                    {"dense": nn.Linear(width, width), "LayerNorm": nn.LayerNorm(width, eps=epsilon)}
                ),
            }
        )
        return nn.ModuleDict(
            {
                "attention": attention,
                "intermediate": nn.ModuleDict({"dense": nn.Linear(width, inner)}),
                "output": nn.ModuleDict(
                    {"dense": nn.Linear(inner, width), "LayerNorm": nn.LayerNorm(width, eps=epsilon)}
                ),
            }
        )

    def forward(self, input_ids: torch.Tensor, attention_mask: torch.Tensor) -> torch.Tensor:
        """The last layer's vectors.

        # Parameters

        input_ids : `(batch, length)` word-piece ids. attention_mask : `(batch, length)`, true (or 1) for real pieces.

        # Returns

        `(batch, length)` + `(hidden_size,)` vectors.
        """
        embeddings = self.embeddings
        positions = torch.arange(input_ids.size(1), device=input_ids.device)
        hidden = (
            embeddings["word_embeddings"](input_ids)
            + embeddings["token_type_embeddings"](torch.zeros_like(input_ids))
            + embeddings["position_embeddings"](positions)
        )
        hidden = embeddings["LayerNorm"](hidden)
        keys_mask = attention_mask.bool()[:, None, None, :]  # (batch, 1, 1, length): which pieces are attended to
        for layer in cast(nn.ModuleList, self.encoder["layer"]):
            hidden = self._run_layer(cast(nn.ModuleDict, layer), hidden, keys_mask)
        return hidden

    def _run_layer(self, layer: nn.ModuleDict, hidden: torch.Tensor, keys_mask: torch.Tensor) -> torch.Tensor:
        """One post-norm layer: self-attention, then the feed-forward block, each added back and normalised."""
        batch, length, width = hidden.shape
        head_width = width // self.num_heads
        attention, feed_forward = _part(layer, "attention"), _part(layer, "output")
        projections = _part(attention, "self")
        query, key, value = (
            projections[name](hidden).view(batch, length, self.num_heads, head_width).transpose(1, 2)
            for name in ("query", "key", "value")
        )
        attended = functional.scaled_dot_product_attention(
            query, key, value, attn_mask=keys_mask, scale=1.0 / math.sqrt(head_width)
        )  # (batch, heads, length, head_width)
        attended = attended.transpose(1, 2).reshape(batch, length, width)
        output = _part(attention, "output")
        hidden = output["LayerNorm"](output["dense"](attended) + hidden)
        inner = self.activation(_part(layer, "intermediate")["dense"](hidden))
        return feed_forward["LayerNorm"](feed_forward["dense"](inner) + hidden)


def _part(parts: nn.ModuleDict, name: str) -> nn.ModuleDict:
    """The group of parts `name` of `parts` (Hugging Face's nesting of a layer)."""
    return cast(nn.ModuleDict, parts[name])
