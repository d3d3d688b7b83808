"""`--precision`: auto takes bfloat16 only where the hardware computes it natively; every entry point
(predictor, Python API, spaCy, commands) takes the same three names."""

import pytest
import spacy
from allennlp.models.archival import load_archive
from allennlp.predictors import Predictor

import srl_zoo
from srl_zoo.nn import precision as precision_module
from srl_zoo.nn.precision import chosen_precision, uses_bfloat16


@pytest.mark.parametrize("fast", [True, False])
def test_auto_follows_the_cpu_and_explicit_names_are_kept(monkeypatch, fast):
    monkeypatch.setattr(precision_module, "cpu_has_fast_bfloat16", lambda: fast)
    assert chosen_precision("auto") == ("bfloat16" if fast else "float32")
    assert chosen_precision("float32") == "float32" and chosen_precision("bfloat16") == "bfloat16"
    assert uses_bfloat16("bfloat16") and not uses_bfloat16("float32")


def test_an_unknown_precision_is_refused():
    with pytest.raises(ValueError, match="precision must be one of auto, float32, bfloat16, got 'fp16'"):
        uses_bfloat16("fp16")


def test_the_cpu_flags_are_read_from_proc_cpuinfo():
    flags = open("/proc/cpuinfo", encoding="utf-8").read()
    expected = " avx512_bf16" in flags or " amx_bf16" in flags
    assert precision_module.cpu_has_fast_bfloat16() == expected


@pytest.mark.parametrize("fast", [True, False])
def test_every_entry_point_resolves_auto_the_same_way(predicate_model_archive, monkeypatch, fast):
    monkeypatch.setattr(precision_module, "cpu_has_fast_bfloat16", lambda: fast)
    expected = "bfloat16" if fast else "float32"
    predictor = Predictor.from_archive(load_archive(predicate_model_archive), "srl_zoo")
    assert predictor.precision == expected
    assert srl_zoo.load(predicate_model_archive).predictor.precision == expected
    nlp = spacy.blank("en")
    nlp.add_pipe("srl_zoo", config={"archive": predicate_model_archive})
    assert nlp.get_pipe("srl_zoo").predictor.precision == expected
    assert srl_zoo.load(predicate_model_archive, precision="float32").predictor.precision == "float32"
    # the older switch still works, and wins
    assert srl_zoo.load(predicate_model_archive, mixed_precision=True).predictor.precision == "bfloat16"


def test_bfloat16_failing_on_a_cpu_without_it_says_what_to_do(predicate_model_archive, monkeypatch):
    """oneDNN has no bfloat16 LSTM on CPUs without AVX-512 BF16; the error says to use float32."""
    from srl_zoo.predictors import srl_predictor

    labeler = srl_zoo.load(predicate_model_archive, precision="bfloat16")
    monkeypatch.setattr(srl_predictor, "cpu_has_fast_bfloat16", lambda: False)

    def no_primitive(*args, **kwargs):
        raise RuntimeError("could not create a primitive descriptor for the LSTM forward propagation primitive")

    monkeypatch.setattr(labeler.predictor._model, "forward", no_primitive)
    with pytest.raises(RuntimeError, match=r"cannot run in bfloat16 on this CPU .*: use precision float32 or auto$"):
        labeler("Dogs bark.")
