"""How a row's config is fitted to the budget: wherever the config names its training file (AMN's
memory reads it too), the budget's first-N-sentences file takes its place."""

import json

from srl_zoo.data.formats import READERS
from srl_zoo.leaderboard.rows import _training_file_overrides
from srl_zoo.leaderboard.spec import Budget, Row, Spec
from tests.conftest import fixture_path

TRAIN = fixture_path("conll2012", "sample.gold_conll")


def test_every_mention_of_the_training_file_names_the_budget_s_file(tmp_path):
    config = {
        "train_data_path": TRAIN,
        "validation_data_path": "dev.txt",
        "model": {"frame_features": {"train_data_path": TRAIN, "other": "dev.txt"}, "layers": [TRAIN]},
    }
    (tmp_path / "config.json").write_text(json.dumps(config))
    budget = Budget(epochs=1, train=TRAIN, dev=TRAIN, train_sentences=3)
    spec = Spec("t", budget, [], [])
    overrides = _training_file_overrides(spec, Row("r", str(tmp_path / "config.json")), str(tmp_path / "runs"))
    subset = str(tmp_path / "runs" / "data" / "train-first-3.conll2012.txt")
    assert overrides == {"model.frame_features.train_data_path": subset}
    assert len(list(READERS["conll2012"](subset))) == 3
    whole = Spec("t", Budget(epochs=1, train=TRAIN, dev=TRAIN), [], [])
    assert _training_file_overrides(whole, Row("r", str(tmp_path / "config.json")), str(tmp_path / "runs")) == {}


def test_the_speed_requests_carry_each_sentence_s_pos_tags(monkeypatch):
    # AMN's memory finds its neighbours by POS: without the file's tags its row could not be measured
    from allennlp.predictors import Predictor

    from srl_zoo.leaderboard.rows import prediction_speed

    seen: list[dict] = []

    class Recorder:
        def predict_batch_json(self, batch):
            seen.extend(batch)
            return []

    monkeypatch.setattr(Predictor, "from_archive", staticmethod(lambda archive, name, extra_args: Recorder()))
    spec = Spec("t", Budget(epochs=1, train=TRAIN, dev=TRAIN, speed_sentences=4), [], [])
    speeds = prediction_speed(None, spec)
    assert speeds["tokens_per_s_float32"] > 0 and speeds["tokens_per_s_bfloat16"] > 0
    sentences = list(READERS["conll2012"](TRAIN))[:4]
    expected = {tuple(s.tokens): s.pos for s in sentences}
    assert seen and all(request["pos"] == expected[tuple(request["tokens"])] for request in seen)
    assert all(request["pos"] for request in seen)
