"""The network is composed once: the allennlp Model and the runtime's model are both `SrlNetwork`s and run the same
pass; the runtime builds its network from plain parts alone; a sentence given without predicates to a model
without a predicate head is refused in the same words on both paths."""

import os

import pytest
import torch

from srl_zoo.data.formats.labels import NO_PREDICATE_HEAD
from srl_zoo.data.sentence_metadata import SentenceMetadata
from srl_zoo.models.srl_model import SrlModel
from srl_zoo.parts.batch_inputs import BatchInputs
from srl_zoo.parts.network import NetworkInputs, NetworkPass, SrlNetwork
from srl_zoo.runtime.load import load_model
from srl_zoo.runtime.model import LabelingModel
from tests.conftest import REPO_ROOT

DEFAULT = os.path.join(REPO_ROOT, "models", "ewt-english.tar.gz")
GLOVE = os.path.join(REPO_ROOT, "models", "ewt-english-glove.tar.gz")


def test_both_paths_run_the_one_pass():
    for model in (SrlModel, LabelingModel):
        assert issubclass(model, SrlNetwork)
        assert model.run_network is SrlNetwork.run_network and model.readable_frames is SrlNetwork.readable_frames


@pytest.mark.parametrize("archive", [DEFAULT, GLOVE], ids=os.path.basename)
def test_the_runtime_builds_its_network_from_plain_parts_alone(archive):
    model = load_model(archive)
    places = {type(module).__module__ for module in model.modules()}
    assert places and all(
        place.startswith(("srl_zoo.parts.", "srl_zoo.runtime.", "torch.")) for place in places
    ), sorted(places)
    assert not any(place.startswith(("srl_zoo.models", "srl_zoo.modules", "allennlp")) for place in places)


def test_the_pass_finds_predicates_where_none_are_given_and_scores_the_given_ones():
    model = load_model(DEFAULT)
    words = [["The", "committee", "approved", "the", "budget", "."], ["They", "start", "in", "May", "."]]
    batch = model.prepare(words, [[2], None])  # the first sentence's predicate given, the second's found
    with torch.no_grad():
        decoded = model.decode(batch)
    assert decoded["predicate_indices"].tolist() == [[2], [1]]
    assert decoded["predicted_tags"].shape[:2] == (2, 1) and decoded["mask"].sum(-1).tolist() == [6, 5]
    frames = model.readable_frames(decoded)
    assert [frame["predicate"]["word"] for sentence in frames for frame in sentence] == ["approved", "start"]


def test_no_predicate_head_is_one_sentence_on_either_path():
    network = SrlNetwork()
    model = load_model(DEFAULT)
    network.build_network(model.frame_scorer, None, model.tags)
    embedded = torch.zeros(1, 3, model.embedder.output_dim)
    context = BatchInputs(sentences=[SentenceMetadata(["a", "b", "c"], False)])
    inputs = NetworkInputs(embedded, torch.ones(1, 3, dtype=torch.bool), context, torch.full((1, 0), -1))
    with pytest.raises(ValueError, match=f"^{NO_PREDICATE_HEAD}$"):
        network.eval().run_network(inputs, NetworkPass())
