"""srl_zoo's plain BERT computes Hugging Face's `BertModel`: the same last-layer vectors from the same weights
(loaded by their names), padded pieces left out of attention, and the configs it does not compute told apart."""

import json

import pytest
import torch

from srl_zoo.parts.embedders.bert import BertEncoder, is_plain_bert
from tests.tiny_bert import SPLITTING_PIECES, write_tiny_bert


@pytest.mark.parametrize("activation", ["gelu", "relu"])
def test_the_plain_bert_gives_the_vectors_of_transformers_bert(tmp_path, activation):
    from transformers import BertConfig, BertModel

    write_tiny_bert(str(tmp_path), SPLITTING_PIECES, hidden=16, layers=2)
    config = json.loads((tmp_path / "config.json").read_text()) | {"hidden_act": activation}
    torch.manual_seed(1)
    reference = BertModel(BertConfig(**config)).eval()
    plain = BertEncoder(config).eval()
    state = {key: value for key, value in reference.state_dict().items() if not key.startswith("pooler.")}
    missing, unexpected = plain.load_state_dict(state, strict=False)
    assert missing == [] and set(unexpected) <= {"embeddings.position_ids"}
    ids = torch.randint(5, config["vocab_size"], (3, 7))
    mask = torch.tensor([[1] * 7, [1] * 4 + [0] * 3, [1] * 1 + [0] * 6])
    ids = ids * mask  # padding is piece 0
    with torch.no_grad():
        theirs = reference(input_ids=ids, attention_mask=mask, token_type_ids=torch.zeros_like(ids)).last_hidden_state
        mine = plain(ids, mask.bool())
    real = mask.bool()
    assert mine.shape == theirs.shape
    assert torch.allclose(mine[real], theirs[real], atol=1e-5), (mine[real] - theirs[real]).abs().max()
    # a padded piece changes nothing for the real ones
    longer = torch.cat([ids, torch.zeros(3, 2, dtype=torch.long)], dim=1)
    with torch.no_grad():
        padded = plain(longer, torch.cat([mask, torch.zeros(3, 2, dtype=torch.long)], dim=1).bool())
    assert torch.allclose(padded[:, :7][real], mine[real], atol=1e-5)


def test_only_absolute_position_encoder_berts_are_plain():
    bert = {"model_type": "bert", "hidden_act": "gelu"}
    assert is_plain_bert(bert)
    assert not is_plain_bert(bert | {"position_embedding_type": "relative_key"})
    assert not is_plain_bert(bert | {"hidden_act": "silu"})
    assert not is_plain_bert(bert | {"is_decoder": True})
    assert not is_plain_bert({"model_type": "mpnet"})
