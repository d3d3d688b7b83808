"""The side label fields say nothing of their namespaces, and allennlp's own field keeps its advice for others."""

import logging

from allennlp.data import Token
from allennlp.data.fields import SequenceLabelField, TextField

import srl_zoo.plugin  # noqa: F401  (the readers and every patch: none may touch allennlp's field)
from srl_zoo.data.fields.side_label_field import SIDE_NAMESPACES, SideLabelField


def test_no_advice_for_the_side_namespaces_and_allennlps_record_untouched(caplog):
    words = TextField([Token("They"), Token("start")], {})
    with caplog.at_level(logging.WARNING):
        for namespace in sorted(SIDE_NAMESPACES):
            SideLabelField(["a", "b"], words, label_namespace=namespace)
    assert not [record for record in caplog.records if "label namespace" in record.getMessage()]
    assert not SIDE_NAMESPACES & SequenceLabelField._already_warned_namespaces
    with caplog.at_level(logging.WARNING):
        SequenceLabelField(["a", "b"], words, label_namespace="srl_zoo_test_namespace")
    assert any("srl_zoo_test_namespace" in record.getMessage() for record in caplog.records)
