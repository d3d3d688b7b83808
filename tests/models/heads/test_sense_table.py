"""Sense restriction: a predicate never gets a sense its word was not seen with in training (a word
never seen: `01`), predicate identification is unchanged by it, and the table travels in the state dict."""

import torch
from allennlp.data import Vocabulary

from srl_zoo.data.sentence_metadata import SentenceMetadata
from srl_zoo.models.heads import PredicateTaggerHead
from srl_zoo.modules.frame_scorers import EncodedSentences
from srl_zoo.parts.batch_inputs import BatchInputs
from srl_zoo.parts.heads.sense_table import SenseTable

LABELS = ["-", "01", "02", "13", "LV"]


def vocabulary() -> Vocabulary:
    vocab = Vocabulary(non_padded_namespaces=["predicate_senses"])
    for label in LABELS:
        vocab.add_token_to_namespace(label, "predicate_senses")
    return vocab


def ids(*labels):
    return torch.tensor([[LABELS.index(label) for label in labels]])


def test_a_word_keeps_to_its_training_senses_and_an_unseen_word_gets_01():
    table = SenseTable(dict(enumerate(LABELS)), not_a_predicate=0)
    table.record([["He", "broke", "it"]], ids("-", "01", "-"))
    table.record([["It", "broke", "down"]], ids("-", "02", "-"))
    logits = torch.zeros(1, 3, len(LABELS))
    logits[0, :, LABELS.index("13")] = 9.0  # the head's favourite: a sense neither word had
    logits[0, :, LABELS.index("02")] = 5.0
    chosen = table.restrict(logits, ids("-", "13", "13"), [["They", "broke", "smiled"]])
    assert [LABELS[i] for i in chosen[0].tolist()] == ["-", "02", "01"]


def test_an_unseen_word_chooses_among_its_lemmas_rolesets_in_the_frame_files():
    from srl_zoo.frames.readable_frames import frame_file_senses

    assert frame_file_senses("approvals") == ["01"]  # approve.01, through the alias `approval`
    assert "13" in frame_file_senses("ran") and frame_file_senses("blorfed") == []
    table = SenseTable(dict(enumerate(LABELS)), not_a_predicate=0, unseen_senses=frame_file_senses)
    table.record([["He", "broke", "it"]], ids("-", "01", "-"))
    logits = torch.zeros(1, 4, len(LABELS))
    logits[0, :, LABELS.index("13")] = 9.0  # a sense neither unseen word's lemma has in the frame files
    logits[0, :, LABELS.index("02")] = 5.0
    chosen = table.restrict(logits, ids("13", "13", "13", "13"), [["broke", "ran", "blorfed", "approvals"]])
    # broke: its training sense; ran: the head's favourite, run.13 (the frame files list it); blorfed: no
    # roleset, 01; approvals: approve.01 only, not the head's favourites
    assert [LABELS[i] for i in chosen[0].tolist()] == ["01", "13", "01", "01"]


def test_whether_a_token_is_a_predicate_is_not_changed():
    table = SenseTable(dict(enumerate(LABELS)), not_a_predicate=0)
    table.record([["ran"]], ids("01"))
    logits = torch.zeros(1, 1, len(LABELS))
    logits[0, 0, 0] = 1.0  # `-` would win among {-, 01}, but the head said predicate
    assert table.restrict(logits, ids("13"), [["ran"]]).tolist() == [[LABELS.index("01")]]
    assert table.restrict(logits, ids("-"), [["ran"]]).tolist() == [[0]]


def test_the_head_fills_the_table_in_training_restricts_when_not_and_saves_it():
    vocab = vocabulary()
    head = PredicateTaggerHead(vocab, input_dim=4, restrict_senses=True)
    sentences = EncodedSentences([torch.randn(1, 2, 4)])
    mask = torch.ones(1, 2, dtype=torch.bool)
    sentence = SentenceMetadata(["to", "take"])
    inputs = BatchInputs(training=True, sentences=[sentence], predicate_labels=ids("-", "LV"))
    head.train()
    head(sentences, mask, inputs)
    with torch.no_grad():
        head.projection.bias.copy_(torch.tensor([0.0, 0.0, 0.0, 50.0, 0.0]))  # `13` everywhere
    restored = PredicateTaggerHead(vocab, input_dim=4, restrict_senses=True)
    restored.load_state_dict(head.state_dict())
    restored.eval()
    output = restored(sentences, mask, BatchInputs(sentences=[sentence]))
    assert [LABELS[i] for i in output.label_ids[0].tolist()] == ["01", "LV"]  # `to`: never seen -> 01
    unrestricted = PredicateTaggerHead(vocab, input_dim=4)
    unrestricted.load_state_dict({k: v for k, v in head.state_dict().items() if k != "sense_table"})
    unrestricted.eval()
    assert [LABELS[i] for i in unrestricted(sentences, mask, BatchInputs()).label_ids[0].tolist()] == ["13", "13"]
