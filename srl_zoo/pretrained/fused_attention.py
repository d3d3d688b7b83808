"""BERT's self-attention through torch's fused `scaled_dot_product_attention`: transformers 4.25.1 (pinned
with allennlp 2.10.1) computes it as a matmul, a separate scale, mask addition, softmax and a second
matmul, each step writing a `(batch, heads, length, length)` tensor; the fused kernel computes the same
function without them. Installed over `BertSelfAttention.forward` by `srl_zoo.allennlp_patches`; the
cases the fused kernel does not cover (cross-attention, cached keys, head masks, returned attention
weights, relative position embeddings) go to transformers' own forward."""

from typing import Optional

import torch
from torch.nn import functional

from srl_zoo.pretrained.transformers_version import transformers_5_or_later


def fused_self_attention_forward(
    self,
    hidden_states: torch.Tensor,
    attention_mask: Optional[torch.Tensor] = None,
    head_mask: Optional[torch.Tensor] = None,
    encoder_hidden_states: Optional[torch.Tensor] = None,
    encoder_attention_mask: Optional[torch.Tensor] = None,
    past_key_value: Optional[tuple[tuple[torch.Tensor]]] = None,
    output_attentions: Optional[bool] = False,
) -> tuple[torch.Tensor, ...]:
    """transformers' `BertSelfAttention.forward`, fused where it can be; same arguments and outputs.

    # Parameters

    self : the `BertSelfAttention`.
    hidden_states : `(batch, length, hidden)`.
    attention_mask : `(batch, 1, 1, length)` additive mask (0 for real tokens, a large negative for padding).
    """
    plain = (
        encoder_hidden_states is None
        and past_key_value is None
        and head_mask is None
        and not output_attentions
        and not self.is_decoder
        and self.position_embedding_type == "absolute"
    )
    if not plain:
        return fused_self_attention_forward.replaced(  # type: ignore[attr-defined]
            self,
            hidden_states,
            attention_mask,
            head_mask,
            encoder_hidden_states,
            encoder_attention_mask,
            past_key_value,
            output_attentions,
        )
    query = self.transpose_for_scores(self.query(hidden_states))
    key = self.transpose_for_scores(self.key(hidden_states))
    value = self.transpose_for_scores(self.value(hidden_states))
    if attention_mask is not None:
        attention_mask = attention_mask.to(query.dtype)  # under autocast the mask stays float32
    context = functional.scaled_dot_product_attention(
        query, key, value, attn_mask=attention_mask, dropout_p=self.dropout.p if self.training else 0.0
    )
    batch, _, length, _ = context.shape
    return (context.transpose(1, 2).reshape(batch, length, self.all_head_size),)


fused_self_attention_forward.srl_zoo_fused = True  # type: ignore[attr-defined]


def use_fused_attention() -> None:
    """Make transformers' BERT self-attention use the fused kernel (once only); transformers 5 (the GPU
    image's) already calls torch's `scaled_dot_product_attention` with a forward of its own signature, and is
    left as it is."""
    from transformers.models.bert.modeling_bert import BertSelfAttention

    if transformers_5_or_later():
        return

    current = BertSelfAttention.forward
    if not getattr(current, "srl_zoo_fused", False):
        fused_self_attention_forward.replaced = current  # type: ignore[attr-defined]  # transformers', for tests
        BertSelfAttention.forward = fused_self_attention_forward  # type: ignore[method-assign]
