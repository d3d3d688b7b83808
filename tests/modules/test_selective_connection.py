"""The selective-connection update, the encoder's layer outputs, and the per-layer loss option."""

import os

import pytest
import torch
from allennlp.common import Params
from allennlp.common.testing import ModelTestCase
from allennlp.data import Batch
from allennlp.models import Model

from srl_zoo.modules import SelectiveConnection, SelectiveConnectionEncoder
from tests.conftest import FIXTURES, REPO_ROOT

pytestmark = pytest.mark.slow  # trains a model, loads one or starts processes: not in `make test-fast`


def test_update_follows_the_equations():
    torch.manual_seed(0)
    connection = SelectiveConnection(4)
    x, s = torch.randn(2, 3, 4), torch.randn(2, 3, 4)
    w_z, w_g, w = connection.from_output.weight.chunk(3, 0)
    b_z, b_g, b = connection.from_output.bias.chunk(3, 0)
    u_z, u_g = connection.gates_from_state.weight.chunk(2, 0)
    u = connection.candidate_from_state.weight
    z = torch.sigmoid(x @ w_z.T + b_z + s @ u_z.T)
    g = torch.sigmoid(x @ w_g.T + b_g + s @ u_g.T)
    candidate = torch.tanh(x @ w.T + b + (g * s) @ u.T)
    assert torch.allclose(connection(x, s), (1 - z) * s + z * candidate, atol=1e-6)


@pytest.mark.parametrize("next_input", ["state", "output"])
@pytest.mark.parametrize("input_bilstm", [False, True])
def test_layers_padding_and_determinism(next_input, input_bilstm):
    torch.manual_seed(1)
    encoder = SelectiveConnectionEncoder(
        8,
        8,
        num_layers=3,
        num_heads=2,
        ffn_hidden_dim=8,
        input_bilstm=input_bilstm,
        next_input=next_input,
        initial_state="random",
    ).eval()
    x = torch.randn(1, 5, 8)
    padded = torch.cat([x, 50 * torch.randn(1, 2, 8)], dim=1)
    mask = torch.tensor([[True] * 5 + [False] * 2])
    layers = encoder.forward_layers(x, torch.ones(1, 5, dtype=torch.bool))
    assert len(layers) == 3 and all(layer.shape == (1, 5, 8) for layer in layers)
    assert torch.equal(encoder(x, torch.ones(1, 5, dtype=torch.bool)), layers[-1])
    assert torch.allclose(encoder(padded, mask)[:, :5], layers[-1], atol=1e-5)
    assert (encoder(padded, mask)[:, 5:] == 0).all()


def test_without_the_selective_connection_layers_are_the_module_outputs():
    torch.manual_seed(3)
    encoder = SelectiveConnectionEncoder(8, 8, num_layers=2, num_heads=2, ffn_hidden_dim=8, selective=False).eval()
    assert encoder.connections is None
    x, mask = torch.randn(1, 4, 8), torch.ones(1, 4, dtype=torch.bool)
    hidden = encoder.input(x)
    for attention, feed_forward in encoder.modules_:
        hidden = feed_forward(attention(hidden, mask), mask)
    assert torch.allclose(encoder(x, mask), hidden, atol=1e-6)


def test_bad_options_are_clear_errors():
    with pytest.raises(ValueError, match="next_input must be one of"):
        SelectiveConnectionEncoder(8, 8, next_input="both")
    with pytest.raises(ValueError, match="initial_state must be one of"):
        SelectiveConnectionEncoder(8, 8, initial_state="ones")


class TestSelectiveConnectionModel(ModelTestCase):
    def set_up(self, monkeypatch, next_input="output", input_bilstm=False, initial_state="zero"):
        monkeypatch.chdir(REPO_ROOT)
        monkeypatch.setenv("SRL_ZOO_TEST_SC_NEXT_INPUT", next_input)
        monkeypatch.setenv("SRL_ZOO_TEST_SC_BILSTM", str(input_bilstm).lower())
        monkeypatch.setenv("SRL_ZOO_TEST_SC_INITIAL_STATE", initial_state)
        self.set_up_model(
            os.path.join(FIXTURES, "selective_connection", "tiny.jsonnet"),
            os.path.join(FIXTURES, "conll2005", "sample.txt"),
        )

    @pytest.mark.parametrize(
        "next_input, input_bilstm, initial_state",
        [("output", False, "zero"), ("state", True, "learned"), ("output", True, "random")],
    )
    def test_train_save_load_and_batch_consistency(self, monkeypatch, next_input, input_bilstm, initial_state):
        self.set_up(monkeypatch, next_input, input_bilstm, initial_state)
        # with S_0 = 0 the first connection's U matrices multiply zeros: no gradient, by construction
        unused = {
            "frame_scorer.encoder.connections.0.gates_from_state.weight",
            "frame_scorer.encoder.connections.0.candidate_from_state.weight",
        }
        self.ensure_model_can_train_save_and_load(
            self.param_file, gradients_to_ignore=unused if initial_state == "zero" else None
        )
        self.ensure_batch_predictions_are_consistent()

    def test_loss_is_the_mean_of_the_layer_losses_and_inference_averages_distributions(self, monkeypatch):
        from allennlp.nn.util import sequence_cross_entropy_with_logits

        self.set_up(monkeypatch)
        batch = Batch(self.instances[:4])
        batch.index_instances(self.vocab)
        tensors = batch.as_tensor_dict()
        self.model.eval()
        output = self.model(**tensors)
        rows = (tensors["frames"]["predicate_indices"] >= 0).nonzero()
        indicator = (
            torch.arange(tensors["frames"]["tags"].size(-1))[None]
            == tensors["frames"]["predicate_indices"][rows[:, 0], rows[:, 1]][:, None]
        ).long()
        mask = output["mask"][rows[:, 0]]
        words = self.model.text_field_embedder(tensors["tokens"])[rows[:, 0]]
        layers = self.model.frame_scorer.encoder.forward_layers(
            self.model.frame_scorer._condition(words, indicator), mask
        )
        logits = [self.model.frame_scorer.tag_projection(h) for h in layers]
        gold = tensors["frames"]["tags"][rows[:, 0], rows[:, 1]]
        expected = (
            sum(
                sequence_cross_entropy_with_logits(layer, gold, mask, average="token", label_smoothing=0.1)
                for layer in logits
            )
            / 3
        )
        assert output["loss"].item() == pytest.approx(expected.item(), rel=1e-5)
        average = torch.stack([layer.softmax(-1) for layer in logits]).mean(0)
        assert torch.allclose(output["class_probabilities"][rows[:, 0], rows[:, 1]], average, atol=1e-5)

    def test_per_layer_loss_needs_an_encoder_with_layers(self, monkeypatch):
        self.set_up(monkeypatch)
        params = Params.from_file(
            os.path.join(FIXTURES, "deepatt", "bilstm_baseline.jsonnet"), '{"model.frame_scorer.per_layer_loss": true}'
        ).pop("model")
        with pytest.raises(ValueError, match="per_layer_loss needs an encoder with forward_layers"):
            Model.from_params(vocab=self.vocab, params=params)
