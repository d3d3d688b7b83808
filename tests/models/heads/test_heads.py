"""The joint POS/predicate head's marginals and the dependency-parse task's loss and attachment scores."""

import pytest
import torch
from allennlp.data import Vocabulary

from srl_zoo.models.heads import DependencyParseTask, JointPosPredicateHead
from srl_zoo.parts.batch_inputs import BatchInputs
from srl_zoo.parts.encoders.encoded_sentences import EncodedSentences, SyntaxOutputs


def joint_vocab() -> Vocabulary:
    vocab = Vocabulary()
    vocab.add_tokens_to_namespace(["NN", "VBD", "DT"], "pos")
    vocab.add_tokens_to_namespace(["-", "Y", "01"], "predicate_senses")
    vocab.add_tokens_to_namespace(["NN/-", "VBD/Y", "VBD/01", "DT/-"], "pos_predicate")  # seen pairs only
    return vocab


def test_joint_head_marginalises_the_joint_distribution():
    torch.manual_seed(0)
    vocab = joint_vocab()
    head = JointPosPredicateHead(vocab, input_dim=6, layer=0, mlp_dim=5, dropout=0.0).eval()
    states = torch.randn(1, 4, 6)
    mask = torch.tensor([[True, True, True, False]])
    output = head(EncodedSentences([states]), mask, BatchInputs())
    joint = torch.softmax(head.classifier(head.mlp(states)), -1)[0]
    index = vocab.get_token_to_index_vocabulary("pos_predicate")
    predicate_index = vocab.get_token_to_index_vocabulary("predicate_senses")
    for t in range(3):
        by_label = {
            "-": joint[t, index["NN/-"]] + joint[t, index["DT/-"]],
            "Y": joint[t, index["VBD/Y"]],
            "01": joint[t, index["VBD/01"]],
        }
        assert output.label_ids[0, t].item() == predicate_index[max(by_label, key=lambda k: by_label[k].item())]
    assert output.label_ids[0, 3].item() == predicate_index["-"]  # padding
    # a pair never seen (NN/Y) gets no mass: POS marginals sum the seen pairs only
    pos = (joint @ head.to_pos)[:, vocab.get_token_index("VBD", "pos")]
    assert torch.allclose(pos, joint[:, index["VBD/Y"]] + joint[:, index["VBD/01"]])


def test_joint_head_metrics_and_loss():
    vocab = joint_vocab()
    head = JointPosPredicateHead(vocab, input_dim=6, layer=0, mlp_dim=5, dropout=0.0)
    mask = torch.ones(1, 3, dtype=torch.bool)
    ids = lambda namespace, labels: torch.tensor([[vocab.get_token_index(label, namespace) for label in labels]])  # noqa: E731
    inputs = BatchInputs(
        pos_predicate_labels=ids("pos_predicate", ["DT/-", "NN/-", "VBD/01"]),
        pos_tags=ids("pos", ["DT", "NN", "VBD"]),
        predicate_labels=ids("predicate_senses", ["-", "-", "01"]),
    )
    output = head(EncodedSentences([torch.randn(1, 3, 6)]), mask, inputs)
    assert output.loss is not None and output.loss.requires_grad
    metrics = head.get_metrics(reset=True)
    assert set(metrics) >= {"pos-accuracy", "predicate-f1"}


def syntax(arc_scores: torch.Tensor, states: torch.Tensor) -> SyntaxOutputs:
    """A syntax head's outputs: its attention is the softmax of its arc scores."""
    return SyntaxOutputs(arc_scores, states, torch.softmax(arc_scores, -1))


def parse_task():
    vocab = Vocabulary()
    vocab.add_tokens_to_namespace(["nsubj", "root", "obj"], "dependency_relations")
    return vocab, DependencyParseTask(vocab, input_dim=4, label_mlp_dim=3, dropout=0.0)


def test_parse_task_scores_attachments_by_hand():
    vocab, task = parse_task()
    # 3 tokens; gold: 1 <- 2 (nsubj), 2 root, 3 <- 2 (obj)
    heads = torch.tensor([[2, 0, 2]])
    relations = torch.tensor([[vocab.get_token_index(r, "dependency_relations") for r in ("nsubj", "root", "obj")]])
    arc_scores = torch.full((1, 3, 3), -5.0)
    arc_scores[0, 0, 1] = arc_scores[0, 1, 1] = 5.0  # right
    arc_scores[0, 2, 0] = 5.0  # wrong: token 3 attached to token 1
    sentences = EncodedSentences([torch.zeros(1, 3, 4)], syntax(arc_scores, torch.randn(1, 3, 4)))
    inputs = BatchInputs(dependency_heads=heads, dependency_labels=relations)
    loss = task(sentences, torch.ones(1, 3, dtype=torch.bool), inputs)
    assert loss is not None and loss.item() > 0
    metrics = task.get_metrics(reset=True)
    assert metrics["uas"] == pytest.approx(2 / 3)
    assert metrics["las"] <= metrics["uas"]
    assert task.get_metrics() == {}


def test_parse_task_without_heads_adds_nothing_and_needs_a_syntax_head():
    _, task = parse_task()
    sentences = EncodedSentences([torch.zeros(1, 3, 4)], syntax(torch.zeros(1, 3, 3), torch.zeros(1, 3, 4)))
    assert task(sentences, torch.ones(1, 3, dtype=torch.bool), BatchInputs()) is None
    with pytest.raises(ValueError, match="syntax head"):
        task(EncodedSentences([torch.zeros(1, 3, 4)]), torch.ones(1, 3, dtype=torch.bool), BatchInputs())
