"""LISA's pieces against brute force: the parse-attention head, the syntax head's inputs, the bilinear scorer."""

import pytest
import torch
from allennlp.common import Lazy
from allennlp.data import Vocabulary

from srl_zoo.data.sentence_metadata import SentenceMetadata
from srl_zoo.modules.frame_scorers import BilinearFrameScorer
from srl_zoo.modules.lisa import LisaEncoder
from srl_zoo.parts.batch_inputs import BatchInputs
from srl_zoo.parts.layers.attention import MultiHeadSelfAttention
from srl_zoo.parts.layers.biaffine import MASKED, zero_based_heads

HEADS = torch.tensor([[2, 0, 2, 2, 0], [0, 1, 1, 0, 0]])  # 1-based, 0 = root; 2nd sentence has 3 tokens
MASK = torch.tensor([[True] * 5, [True, True, True, False, False]])


def one_hot_parse(heads: torch.Tensor) -> torch.Tensor:
    return torch.nn.functional.one_hot(zero_based_heads(heads), heads.size(1)).float()


def test_zero_based_heads_point_the_root_at_itself():
    assert zero_based_heads(HEADS).tolist() == [[1, 1, 1, 1, 4], [0, 0, 0, 3, 4]]


def test_last_head_follows_the_given_weights_and_the_others_attend_normally():
    torch.manual_seed(0)
    attention = MultiHeadSelfAttention(dim=8, num_heads=2, attention_dropout=0.0).eval()
    inputs = torch.randn(2, 5, 8)
    weights = torch.softmax(torch.randn(2, 5, 5), -1)
    out = attention(inputs, MASK, last_head_weights=weights)
    q, k, v = attention.qkv(inputs).view(2, 5, 3, 2, 4).permute(2, 0, 3, 1, 4)
    scores = (q[:, 0] @ k[:, 0].transpose(1, 2)) / 2.0  # head 0, scaled by sqrt(4)
    scores = scores.masked_fill(~MASK[:, None, :], float("-inf"))
    head0 = torch.softmax(scores, -1) @ v[:, 0]
    head1 = weights @ v[:, 1]
    expected = attention.output(torch.cat([head0, head1], -1))
    assert torch.allclose(out, expected, atol=1e-5)


def make_encoder(**kwargs) -> LisaEncoder:
    torch.manual_seed(0)
    settings = dict(
        input_dim=6, hidden_dim=8, num_layers=3, num_heads=2, ffn_hidden_dim=12, parse_layer=0, arc_mlp_dim=10
    )
    settings.update(kwargs)
    return LisaEncoder(**settings)


def parse_attention(encoder: LisaEncoder, context):
    return encoder.encode(torch.randn(2, 5, 6), MASK, context).syntax.attention


def test_training_attends_to_the_gold_parse():
    encoder = make_encoder().train()
    attention = parse_attention(encoder, BatchInputs(training=True, dependency_heads=HEADS))
    assert torch.equal(attention, one_hot_parse(HEADS))


def test_test_time_uses_the_parser_unless_a_parse_is_given():
    encoder = make_encoder().eval()
    with torch.no_grad():
        inputs = torch.randn(2, 5, 6)
        sentences = encoder.encode(inputs, MASK, BatchInputs(training=False, dependency_heads=HEADS))
        predicted = sentences.syntax.attention
        assert torch.allclose(predicted, torch.softmax(sentences.syntax.arc_scores, -1))
        assert torch.allclose(predicted.sum(-1), torch.ones(2, 5))
        assert predicted[1, :, 3:].abs().max() < 1e-6  # no weight on padding
        # injected for the second sentence only (a request's "heads"), the parser's for the first
        metadata = [SentenceMetadata(["a"] * 5, heads_given=False), SentenceMetadata(["a"] * 3, heads_given=True)]
        mixed = encoder.encode(inputs, MASK, BatchInputs(training=False, sentences=metadata, dependency_heads=HEADS))
        assert torch.allclose(mixed.syntax.attention[0], predicted[0])
        assert torch.equal(mixed.syntax.attention[1], one_hot_parse(HEADS)[1])
        encoder.parse_source = "given"
        given = encoder.encode(inputs, MASK, BatchInputs(training=False, dependency_heads=HEADS))
        assert torch.equal(given.syntax.attention, one_hot_parse(HEADS))
        # the injected parse changes what the layers after the parse head compute
        assert not torch.allclose(given.top, sentences.top)
        assert torch.allclose(given.layers[0], sentences.layers[0])


def test_arc_scores_mask_padded_heads_and_the_baseline_has_no_syntax_head():
    encoder = make_encoder().eval()
    scores = encoder.encode(torch.randn(2, 5, 6), MASK).syntax.arc_scores
    assert (scores[1, :, 3:] == MASKED).all() and (scores[0] > MASKED).all()
    baseline = make_encoder(parse_layer=None)
    assert baseline.encode(torch.randn(2, 5, 6), MASK).syntax is None
    with pytest.raises(ValueError, match="parse_layer"):
        make_encoder(parse_layer=2)  # the last layer has no next layer to hold the parse head


def test_bilinear_scores_match_the_formula():
    torch.manual_seed(0)
    vocab = Vocabulary()
    vocab.add_tokens_to_namespace(["O", "B-A0", "I-A0"], "labels")
    encoder = make_encoder(parse_layer=None)
    scorer = BilinearFrameScorer(vocab, Lazy(lambda **width: encoder), 6, mlp_dim=4, dropout=0.0).eval()
    embedded = torch.randn(2, 5, 6)
    predicates = torch.tensor([[1, 3], [0, -1]])
    with torch.no_grad():
        sentences = scorer.encode_sentences(embedded, MASK)
        logits = scorer(embedded, MASK, predicates, sentences)[0]
        states = sentences.top
        weight = scorer.bilinear.weight  # (labels, 5, 5)
        for b, f in ((0, 0), (0, 1), (1, 0)):
            p = torch.cat([scorer.predicate_mlp(states[b, predicates[b, f]]), torch.ones(1)])
            for t in range(5):
                r = torch.cat([scorer.role_mlp(states[b, t]), torch.ones(1)])
                expected = torch.stack([p @ weight[label] @ r for label in range(weight.size(0))])
                assert torch.allclose(logits[b, f, t], expected, atol=1e-5)
        assert logits[1, 1].abs().sum() == 0  # padded frame
