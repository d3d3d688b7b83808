"""BERT's fused self-attention gives what transformers' own computes (padding masked, float32 and bfloat16
autocast), and the cases it does not cover still reach transformers' code."""

import pytest
import torch
from transformers import BertConfig, BertModel
from transformers.models.bert.modeling_bert import BertSelfAttention

import srl_zoo.plugin  # noqa: F401  (applies the patch)
from srl_zoo.pretrained.fused_attention import fused_self_attention_forward
from srl_zoo.pretrained.transformers_version import transformers_5_or_later

if transformers_5_or_later():  # the GPU image's: its BERT fuses attention itself
    pytest.skip("transformers 5 is left unpatched", allow_module_level=True)

TRANSFORMERS_FORWARD = fused_self_attention_forward.replaced  # type: ignore[attr-defined]


@pytest.fixture(scope="module")
def model_and_inputs():
    """A tiny random BERT and a batch of 3 sentences of different lengths (padded)."""
    torch.manual_seed(0)
    config = BertConfig(vocab_size=50, hidden_size=32, num_hidden_layers=2, num_attention_heads=4, intermediate_size=64)
    model = BertModel(config).eval()
    input_ids = torch.randint(5, 50, (3, 9))
    attention_mask = torch.tensor([[1] * 9, [1] * 5 + [0] * 4, [1] * 2 + [0] * 7])
    return model, input_ids, attention_mask


def hidden_states(model, input_ids, attention_mask, forward, **kwargs):
    original = BertSelfAttention.forward
    BertSelfAttention.forward = forward
    try:
        with torch.no_grad():
            return model(input_ids=input_ids, attention_mask=attention_mask, **kwargs)
    finally:
        BertSelfAttention.forward = original


def test_the_patch_is_in_place():
    assert BertSelfAttention.forward is fused_self_attention_forward


def test_the_same_states_as_transformers_at_every_real_token(model_and_inputs):
    model, input_ids, attention_mask = model_and_inputs
    fused = hidden_states(model, input_ids, attention_mask, fused_self_attention_forward).last_hidden_state
    expected = hidden_states(model, input_ids, attention_mask, TRANSFORMERS_FORWARD).last_hidden_state
    real = attention_mask.bool()
    assert torch.allclose(fused[real], expected[real], atol=1e-5)
    # padding changes nothing at the real tokens: the first row alone gives its own states
    alone = hidden_states(model, input_ids[2:, :2], attention_mask[2:, :2], fused_self_attention_forward)
    assert torch.allclose(alone.last_hidden_state[0], fused[2, :2], atol=1e-5)


def test_bfloat16_autocast_stays_close(model_and_inputs):
    model, input_ids, attention_mask = model_and_inputs
    with torch.autocast("cpu", dtype=torch.bfloat16):
        fused = hidden_states(model, input_ids, attention_mask, fused_self_attention_forward).last_hidden_state
        expected = hidden_states(model, input_ids, attention_mask, TRANSFORMERS_FORWARD).last_hidden_state
    real = attention_mask.bool()
    assert fused.dtype == expected.dtype
    assert torch.allclose(fused[real].float(), expected[real].float(), atol=0.1)


def test_returned_attention_weights_come_from_transformers_code(model_and_inputs):
    model, input_ids, attention_mask = model_and_inputs
    outputs = hidden_states(model, input_ids, attention_mask, fused_self_attention_forward, output_attentions=True)
    assert len(outputs.attentions) == 2 and outputs.attentions[0].shape == (3, 4, 9, 9)
    # no weight on padding
    assert float(outputs.attentions[0][2, :, :, 2:].abs().max()) < 1e-6
