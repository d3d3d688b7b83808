"""An allennlp encoder that declares no sentence-encoder contract offers its defaults once a scorer takes it
(`as_sentence_encoder`): the same module, its parameters and their names unchanged, allennlp's `Seq2SeqEncoder`
itself untouched; srl_zoo's encoders keep their own members."""

import torch
from allennlp.modules.seq2seq_encoders import LstmSeq2SeqEncoder, Seq2SeqEncoder

from srl_zoo.config_fit import SENTENCE_ENCODER
from srl_zoo.modules.sentence_encoder import as_sentence_encoder, contract_offers
from srl_zoo.parts.encoders.self_attention import SelfAttentionEncoder


def test_an_allennlp_encoder_gets_the_defaults_and_keeps_its_weights():
    torch.manual_seed(0)
    lstm = LstmSeq2SeqEncoder(4, 3, bidirectional=True)
    names = list(lstm.state_dict())
    inputs, mask = torch.randn(2, 5, 4), torch.tensor([[True] * 5, [True] * 3 + [False] * 2])
    expected = lstm(inputs, mask)
    encoder = as_sentence_encoder(lstm)
    assert encoder is lstm and isinstance(lstm, LstmSeq2SeqEncoder) and list(lstm.state_dict()) == names
    (top,) = encoder.forward_layers(inputs, mask)
    assert torch.equal(top, expected) and torch.equal(encoder.encode(inputs, mask).top, expected)
    assert not encoder.exposes_layers and encoder.set_parse_source("given") is False
    assert as_sentence_encoder(lstm) is lstm and type(lstm) is type(as_sentence_encoder(LstmSeq2SeqEncoder(4, 3)))
    assert not hasattr(Seq2SeqEncoder, "encode") and not hasattr(Seq2SeqEncoder, "forward_layers")


def test_the_config_check_reads_the_defaults_for_an_allennlp_encoder_and_a_part_its_own():
    assert contract_offers(LstmSeq2SeqEncoder, {}) == {SENTENCE_ENCODER: {"layers": 1, "syntax_head": False}}
    assert contract_offers(int, {}) is None
    own = {SENTENCE_ENCODER: {"layers": 4, "syntax_head": False}}
    assert contract_offers(SelfAttentionEncoder, {"num_layers": 4}) == own
