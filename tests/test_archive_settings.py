"""An archive's settings are checked against their types and ranges before anything is extracted: one line naming
the archive and the key, the cache left empty, and scores that are always numbers."""

import io
import json
import os

import pytest
import torch

import srl_zoo
from srl_zoo.archive_files import ArchiveError
from srl_zoo.archive_settings import model_settings_problem, transformer_settings_problem
from tests.archive_rewriting import without_graphs
from tests.test_archive_contents import SHIPPED, rewritten


def _embedder(config: dict) -> dict:
    return config["model"]["text_field_embedder"]["token_embedders"]["tokens"]


def _changed(member: str, change):  # type: ignore[no-untyped-def]
    def rewrite(name: str, data: bytes) -> bytes:
        if name != member:
            return data
        if member == "weights.th":
            weights = torch.load(io.BytesIO(data), weights_only=True)
            change(weights)
            saved = io.BytesIO()
            torch.save(weights, saved)
            return saved.getvalue()
        value = json.loads(data)
        change(value)
        return json.dumps(value).encode()

    return rewrite


def _first_weight_nan(weights: dict) -> None:
    name = sorted(weights)[0]
    weights[name] = torch.full_like(weights[name].float(), float("nan"))


BAD_SETTINGS = {
    "unknown activation": (
        "transformer/config.json", lambda c: c.update(hidden_act="no_such_activation"),
        "transformer/config.json: hidden_act 'no_such_activation' is not an activation transformers knows",
    ),
    "length as text": (
        "config.json", lambda c: _embedder(c).update(max_length="512"),
        "config.json: model.text_field_embedder.token_embedders.tokens.max_length '512': expected a whole number",
    ),
    "negative length": (
        "config.json", lambda c: _embedder(c).update(max_length=-5),
        "tokens.max_length -5: expected a whole number of at least 3",
    ),
    "temperature as text": (
        "config.json", lambda c: c["srl_zoo_score_calibration"].update(temperature="hot"),
        "config.json: srl_zoo_score_calibration.temperature 'hot': expected a finite number above 0",
    ),
    "zero temperature": (
        "config.json", lambda c: c["srl_zoo_score_calibration"].update(temperature=0),
        "srl_zoo_score_calibration.temperature 0: expected a finite number above 0",
    ),
    "width as text": (
        "transformer/config.json", lambda c: c.update(hidden_size="384"),
        "transformer/config.json: hidden_size '384': expected a whole number of at least 1",
    ),
    "dropout in the kwargs": (
        "config.json", lambda c: _embedder(c).update(transformer_kwargs={"hidden_dropout_prob": 2}),
        "tokens.transformer_kwargs.hidden_dropout_prob 2: expected a number from 0 up to 1",
    ),
    "NaN weights": ("weights.th", _first_weight_nan, "holds NaN or infinite values"),
}  # fmt: skip
#: the settings only the torch runtime reads, and weights the graphs refuse by their digest first
TORCH_ONLY = {"unknown activation", "NaN weights"}


def test_another_weights_file_than_the_graphs_were_made_from_is_refused(tmp_path, cache):
    refused = rewritten(SHIPPED, str(tmp_path / "bad.tar.gz"), _changed("weights.th", _first_weight_nan))
    with pytest.raises(ArchiveError) as error:
        srl_zoo.load(refused)
    assert str(error.value) == (
        f"{refused}: weights.th: not the weights its graphs were made from (graphs.json's digest)"
    )
    assert not os.path.exists(cache) or os.listdir(cache) == []


@pytest.fixture()
def cache(tmp_path, monkeypatch) -> str:
    folder = tmp_path / "extracted"
    monkeypatch.setenv("SRL_ZOO_ARCHIVE_CACHE", str(folder))
    return str(folder)


@pytest.mark.parametrize("kind", sorted(BAD_SETTINGS))
def test_a_bad_setting_is_refused_in_one_line_and_leaves_the_cache_empty(kind, tmp_path, cache):
    member, change, reason = BAD_SETTINGS[kind]
    # the graphs hold their activations and refuse changed weights by their digest: the torch runtime's checks
    # are those of the archive without its graphs
    source = without_graphs(SHIPPED, str(tmp_path / "torch-only.tar")) if kind in TORCH_ONLY else SHIPPED
    refused = rewritten(source, str(tmp_path / "bad.tar.gz"), _changed(member, change))
    with pytest.raises(ArchiveError) as error:
        srl_zoo.load(refused)
    assert str(error.value).startswith(f"{refused}: ") and reason in str(error.value), str(error.value)
    assert "\n" not in str(error.value)
    assert not os.path.exists(cache) or os.listdir(cache) == []


def test_the_checks_take_what_the_shipped_configs_say():
    assert transformer_settings_problem({"hidden_size": 384, "num_attention_heads": 12, "hidden_act": "gelu"}) is None
    assert transformer_settings_problem({"hidden_size": 384, "num_attention_heads": 5}) == (
        "hidden_size 384: not a multiple of num_attention_heads 5"
    )
    assert transformer_settings_problem({"num_hidden_layers": True}) == (
        "num_hidden_layers True: expected a whole number of at least 0"
    )
    good = {"srl_zoo_score_calibration": {"temperature": 1.5}, "srl_zoo_f1_per_precision": {"float32": 78.5}}
    assert model_settings_problem(good) is None
    assert model_settings_problem({"srl_zoo_f1_per_precision": {"int8": "high"}}) == (
        "srl_zoo_f1_per_precision.int8 'high': expected a number (an F1) or null"
    )
    assert model_settings_problem({"srl_zoo_f1_per_precision": {"float32": 78.5, "int8": None}}) is None
    assert model_settings_problem({"srl_zoo_score_calibration": {"temperature": float("inf")}}) is not None
    indexer = {"dataset_reader": {"token_indexers": {"tokens": {"type": "word_pieces", "max_length": 2}}}}
    assert model_settings_problem(indexer) == (
        "dataset_reader.token_indexers.tokens.max_length 2: expected a whole number of at least 3"
    )


def test_finite_weights_whose_sum_overflows_are_not_refused_and_one_nan_is():
    from srl_zoo.runtime.load import _check_finite

    _check_finite("model.tar.gz", {"large": torch.tensor([3e38, 3e38]), "ids": torch.tensor([1, 2])})
    with pytest.raises(ArchiveError, match="weights.th: one holds NaN or infinite values"):
        _check_finite("model.tar.gz", {"one": torch.tensor([0.0, float("nan"), 1.0], dtype=torch.float16)})
