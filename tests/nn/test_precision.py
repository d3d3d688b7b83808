"""`--precision`: auto takes a faster precision only where the archive records that it keeps the F1 and the machine
runs it natively (int8 where the runtime can, then bfloat16 on CPUs with it, bfloat16 on a GPU), else float32;
every entry point (predictor, Python API, spaCy, commands) resolves the names the same way."""

import argparse
import io
import json
import os
import tarfile
from pathlib import Path

import pytest
import spacy
import torch
from allennlp.models.archival import load_archive
from allennlp.predictors import Predictor

import srl_zoo.api
import srl_zoo.plugin
from srl_zoo.nn import precision as precision_module
from srl_zoo.nn.precision import (
    F1_PER_PRECISION_KEY,
    add_precision_argument,
    bfloat16_keeps_f1,
    chosen_precision,
    uses_bfloat16,
)
from srl_zoo.predictors import srl_predictor
from srl_zoo.runtime import labeler as runtime_labeler

pytestmark = pytest.mark.slow  # trains a model, loads one or starts processes: not in `make test-fast`

KEEPS = {"float32": 71.91, "bfloat16": 71.85, "int8": 69.35}
LOSES = {"float32": 71.91, "bfloat16": 71.80, "int8": 69.35}
INT8_KEEPS = {"float32": 71.91, "bfloat16": 71.80, "int8": 71.83}


def test_bfloat16_keeps_f1_within_a_tenth():
    assert bfloat16_keeps_f1(KEEPS) and not bfloat16_keeps_f1(LOSES)
    assert not bfloat16_keeps_f1(None) and not bfloat16_keeps_f1({"float32": 70.0, "bfloat16": None})
    assert bfloat16_keeps_f1({"float32": 70.0, "bfloat16": 70.5})


@pytest.mark.parametrize("native", [True, False])
def test_auto_on_a_cpu_takes_the_fastest_precision_the_record_keeps_and_names_are_kept(monkeypatch, native):
    monkeypatch.setattr(precision_module, "cpu_has_fast_bfloat16", lambda: native)
    choice = precision_module.precision_choice
    assert choice("auto", -1, KEEPS).name == ("bfloat16" if native else "float32")
    assert choice("auto", -1, KEEPS, int8_engine="onnxruntime").name == ("bfloat16" if native else "float32")
    assert choice("auto", -1, INT8_KEEPS, int8_engine="onnxruntime").name == "int8"
    assert choice("auto", -1, INT8_KEEPS).name == "float32"  # int8 cannot run here, bfloat16 loses
    for measured in (LOSES, None, {"float32": 71.91, "bfloat16": None}):
        assert choice("auto", -1, measured, int8_engine="onnxruntime") == ("float32", precision_module.CPU_REASON)
    assert "batched with it" in choice("auto", -1, INT8_KEEPS, int8_engine="onnxruntime").reason
    # each engine's int8 F1 is its own record: OpenVINO's is read under "int8 openvino 128" (its activation blocks)
    assert choice("auto", -1, INT8_KEEPS, int8_engine="openvino").name != "int8"
    assert choice("auto", -1, {**LOSES, "int8 openvino": 71.85}, int8_engine="openvino").name != "int8"
    openvino_keeps = {**LOSES, "int8 openvino 128": 71.85}
    assert choice("auto", -1, openvino_keeps, int8_engine="openvino").name == "int8"
    assert "int8 through openvino" in choice("auto", -1, openvino_keeps, int8_engine="openvino").reason
    assert choice("auto", -1, openvino_keeps, int8_engine="onnxruntime").name == "float32"
    assert chosen_precision("float32", -1, KEEPS) == "float32" and chosen_precision("bfloat16") == "bfloat16"
    assert choice("int8").name == "int8" and uses_bfloat16("bfloat16") and not uses_bfloat16("float32")


def test_int8_on_a_gpu_is_refused():
    with pytest.raises(ValueError, match="precision int8 runs on a CPU only"):
        precision_module.precision_choice("int8", 0)


def test_auto_on_a_gpu_follows_the_archives_record(monkeypatch):
    monkeypatch.setattr(torch.cuda, "is_available", lambda: True)
    monkeypatch.setattr(precision_module, "cpu_has_fast_bfloat16", lambda: False)
    assert precision_module.precision_choice("auto", 0, KEEPS).name == "bfloat16"
    assert precision_module.precision_choice("auto", 0, LOSES).name == "float32"
    assert precision_module.precision_choice("auto", 0, None).name == "float32"
    assert precision_module.precision_choice("auto", 0, INT8_KEEPS, int8_engine="onnxruntime").name == "float32"
    assert precision_module.precision_choice("auto", -1, KEEPS).name == "float32"  # this CPU has no bfloat16


def test_auto_times_nothing_so_a_busy_machine_chooses_the_same(monkeypatch):
    """The choice reads no clock: a loaded core cannot change it from one run to the next."""
    import time

    def clock():
        raise AssertionError("auto timed something")

    monkeypatch.setattr(time, "perf_counter", clock)
    monkeypatch.setattr(time, "time", clock)
    monkeypatch.setattr(precision_module, "cpu_has_fast_bfloat16", lambda: True)
    assert {precision_module.precision_choice("auto", -1, KEEPS).name for _ in range(3)} == {"bfloat16"}


def with_record(archive: str, output: str, record) -> str:
    """A copy of `archive` whose config records the F1 per precision `record`."""
    with tarfile.open(archive) as source, tarfile.open(output, "w:gz") as target:
        for member in source.getmembers():
            data = source.extractfile(member) if member.isfile() else None
            if member.name == "config.json":
                config = json.load(data)
                config[F1_PER_PRECISION_KEY] = record
                payload = json.dumps(config).encode()
                member.size = len(payload)
                data = io.BytesIO(payload)
            target.addfile(member, data)
    return output


def test_an_unknown_precision_is_refused():
    with pytest.raises(ValueError, match="precision must be one of auto, float32, bfloat16, int8, got 'fp16'"):
        uses_bfloat16("fp16")


def test_the_cpu_flags_are_read_from_proc_cpuinfo():
    flags = Path("/proc/cpuinfo").read_text(encoding="utf-8")
    expected = " avx512_bf16" in flags or " amx_bf16" in flags
    assert precision_module.cpu_has_fast_bfloat16() == expected


@pytest.mark.parametrize("gpu", [True, False])
def test_every_entry_point_resolves_auto_the_same_way(predicate_model_archive, monkeypatch, tmp_path, gpu):
    """Each entry point resolves auto through `precision_choice` (here made to act as on a GPU where asked)."""
    real = precision_module.precision_choice

    def as_on_a_gpu(precision, cuda_device=-1, measured=None, int8_engine=None):
        return real(precision, 0 if gpu else cuda_device, measured, int8_engine)

    monkeypatch.setattr(torch.cuda, "is_available", lambda: gpu)
    monkeypatch.setattr(precision_module, "cpu_has_fast_bfloat16", lambda: False)
    monkeypatch.setattr(srl_predictor, "precision_choice", as_on_a_gpu)
    monkeypatch.setattr(runtime_labeler, "precision_choice", as_on_a_gpu)
    measured = with_record(predicate_model_archive, os.path.join(tmp_path, "measured.tar.gz"), KEEPS)
    for archive, expected in ((measured, "bfloat16" if gpu else "float32"), (predicate_model_archive, "float32")):
        predictor = Predictor.from_archive(load_archive(archive), "srl_zoo")
        assert predictor.precision == expected and predictor.precision_reason
        assert srl_zoo.load(archive).precision == expected
        nlp = spacy.blank("en")
        nlp.add_pipe("srl_zoo", config={"archive": archive})
        assert nlp.get_pipe("srl_zoo").labeler.precision == expected
    assert srl_zoo.load(measured, precision="float32").precision == "float32"
    # the older switch still works, and wins
    assert srl_zoo.load(predicate_model_archive, mixed_precision=True).precision == "bfloat16"


def test_bfloat16_failing_on_a_cpu_without_it_says_what_to_do(predicate_model_archive, monkeypatch):
    """oneDNN has no bfloat16 LSTM on CPUs without AVX-512 BF16; the error says to use float32."""
    labeler = srl_zoo.api.load(predicate_model_archive, precision="bfloat16")
    monkeypatch.setattr(srl_predictor, "cpu_has_fast_bfloat16", lambda: False)

    def no_primitive(*args, **kwargs):
        raise RuntimeError("could not create a primitive descriptor for the LSTM forward propagation primitive")

    monkeypatch.setattr(labeler.predictor.model, "forward", no_primitive)
    with pytest.raises(RuntimeError, match=r"cannot run in bfloat16 on this CPU .*: use precision float32 or auto$"):
        labeler("Dogs bark.")


@pytest.mark.parametrize("flag", ["--mixed-precision", "--bf16"])
def test_an_older_flag_reads_as_bfloat16_and_stays_out_of_the_help(flag):
    parser = argparse.ArgumentParser()
    add_precision_argument(parser, old_bfloat16_flag=flag)
    assert parser.parse_args([flag]).precision == "bfloat16"
    assert parser.parse_args([]).precision == "auto"
    assert parser.parse_args(["--precision", "int8"]).precision == "int8"
    assert flag not in parser.format_help() and "--precision" in parser.format_help()


def test_label_and_evaluate_still_read_their_older_flags():
    from srl_zoo.commands import corpus_labeling
    from srl_zoo.commands.srl_evaluate import SrlEvaluate

    label = argparse.ArgumentParser()
    corpus_labeling.add_arguments(label)
    assert label.parse_args(["model.tar.gz", "in.txt", "-o", "out.jsonl", "--mixed-precision"]).precision == "bfloat16"
    evaluate = SrlEvaluate().add_subparser(argparse.ArgumentParser().add_subparsers())
    assert evaluate.parse_args(["model.tar.gz", "dev.gold_conll", "--bf16"]).precision == "bfloat16"
