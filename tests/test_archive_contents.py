"""Hostile archives: no archive makes a library run code (remote code, code members, a part named by module), a
lying gzip is bounded by the bytes it decompresses, and an archive refused at any step leaves the cache empty."""

import io
import json
import os
import subprocess
import sys
import tarfile
from collections.abc import Callable
from typing import Optional

import pytest
import torch

import srl_zoo
import srl_zoo.archive_files as archive_files
from srl_zoo.archive_contents import code_request, member_kind_problem, no_code_kwargs, reaching_outside
from srl_zoo.archive_files import ArchiveError, extract_archive
from srl_zoo.runtime.load import load_model

REPO_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SHIPPED = os.path.join(REPO_ROOT, "models", "ewt-english.tar.gz")


def add_bytes(tar: tarfile.TarFile, name: str, data: bytes) -> None:
    info = tarfile.TarInfo(name)
    info.size = len(data)
    tar.addfile(info, io.BytesIO(data))


def rewritten(
    source: str,
    target: str,
    change: Callable[[str, bytes], Optional[bytes]],
    extra: tuple[tuple[str, bytes], ...] = (),
) -> str:
    """`target`: the archive `source` with each file's bytes replaced by `change(name, data)` (None drops the
    file) and the `extra` files added."""
    with tarfile.open(source) as original, tarfile.open(target, "w:gz") as copy:
        for member in original.getmembers():
            if not member.isfile():
                copy.addfile(member)
                continue
            data = change(member.name, original.extractfile(member).read())  # type: ignore[union-attr]
            if data is not None:
                add_bytes(copy, member.name, data)
        for name, data in extra:
            add_bytes(copy, name, data)
    return target


def remote_code_archive(target: str, marker: str) -> str:
    """The shipped model asking transformers for remote code: `trust_remote_code` in its embedder's
    `transformer_kwargs` (with a setting that takes it off the plain-BERT path), an `auto_map` in its transformer's
    config, and the module it names, which writes `marker` when imported."""

    def change(name: str, data: bytes) -> bytes:
        if name == "config.json":
            config = json.loads(data)
            embedder = config["model"]["text_field_embedder"]["token_embedders"]["tokens"]
            embedder["transformer_kwargs"] = {"trust_remote_code": True, "position_embedding_type": "relative_key"}
            return json.dumps(config).encode()
        if name == "transformer/config.json":
            return json.dumps({**json.loads(data), "auto_map": {"AutoConfig": "evil_config.EvilConfig"}}).encode()
        return data

    code = (
        f"open({marker!r}, 'w').write('ran')\n"
        "from transformers import BertConfig\n\n\nclass EvilConfig(BertConfig):\n    pass\n"
    )
    return rewritten(SHIPPED, target, change, (("transformer/evil_config.py", code.encode()),))


def modules_cache_holds(name: str) -> bool:
    """Whether transformers' folder of imported remote code holds a file `name`."""
    from transformers.utils import HF_MODULES_CACHE

    return any(name in files for _, _, files in os.walk(HF_MODULES_CACHE))


def assert_label_command_refuses(hostile: str, refusal: str, tmp_path, cache: str) -> None:  # type: ignore[no-untyped-def]
    """`srl-zoo label` of the archive `hostile` exits 1 with the one line `refusal` and writes no output."""
    corpus = tmp_path / "in.txt"
    corpus.write_text("The Senate confirmed two judges.\n", encoding="utf-8")
    environment = {**os.environ, "SRL_ZOO_ARCHIVE_CACHE": cache}
    labeled = subprocess.run(
        [sys.executable, "-m", "srl_zoo.cli", "label", hostile, str(corpus), "-o", str(tmp_path / "out.jsonl")],
        capture_output=True, text=True, env=environment, cwd=REPO_ROOT,
    )  # fmt: skip
    assert labeled.returncode == 1
    assert labeled.stderr.strip().splitlines() == [f"srl-zoo label: {refusal}"]
    assert not os.path.exists(tmp_path / "out.jsonl")


@pytest.fixture()
def cache(tmp_path, monkeypatch) -> str:
    """An empty folder of extracted archives for this test."""
    folder = tmp_path / "extracted"
    monkeypatch.setenv("SRL_ZOO_ARCHIVE_CACHE", str(folder))
    return str(folder)


def test_remote_code_is_refused_in_one_line_on_every_path(tmp_path, cache):
    import srl_zoo.api

    marker = str(tmp_path / "remote_code_ran")
    hostile = remote_code_archive(str(tmp_path / "remote.tar.gz"), marker)
    sentence = (
        f"{hostile}: unsafe archive, nothing was extracted: member 'transformer/evil_config.py' is neither a file "
        "a model needs"
    )
    for load in (srl_zoo.load, srl_zoo.api.load):
        with pytest.raises(ArchiveError) as refused:
            load(hostile)
        assert str(refused.value).startswith(sentence) and "\n" not in str(refused.value)
    assert_label_command_refuses(hostile, str(refused.value), tmp_path, cache)
    assert not os.path.exists(marker) and not modules_cache_holds("evil_config.py")
    assert not os.path.exists(cache) or os.listdir(cache) == []
    assert not os.path.exists(tmp_path / "out.jsonl")


def test_without_the_member_check_transformers_is_still_called_without_remote_code(tmp_path, cache, monkeypatch):
    """The second wall: were the code member and the keys let through, both paths call transformers with remote
    code off, so the archive's module is never imported (transformers refuses the `auto_map`)."""
    import srl_zoo.api

    marker = str(tmp_path / "remote_code_ran")
    hostile = remote_code_archive(str(tmp_path / "remote.tar.gz"), marker)
    monkeypatch.setattr(archive_files, "member_kind_problem", lambda member: None)
    monkeypatch.setattr(archive_files, "json_member_problem", lambda archive, member: None)
    with pytest.raises(ArchiveError, match="remote.tar.gz: transformer/config.json: Loading transformer requires you"):
        load_model(hostile)
    with pytest.raises(ValueError, match="requires you to execute the configuration file"):
        srl_zoo.api.load(hostile)  # transformers' own refusal
    assert not os.path.exists(marker) and not modules_cache_holds("evil_config.py")
    assert os.listdir(cache) == []


@pytest.mark.parametrize(
    "member, data, refusal",
    [
        ("transformer/modeling_evil.py", b"import os", "member 'transformer/modeling_evil.py' is neither"),
        ("transformer/libevil.so", b"\x7fELF", "member 'transformer/libevil.so' is neither"),
        ("transformer/pytorch_model.bin", b"PK", "member 'transformer/pytorch_model.bin' is neither"),
        ("weights/extra.th", b"PK", "member 'weights/extra.th' is neither"),
        ("graphs/graph-frames.onnx", b"\x08", "member 'graphs/graph-frames.onnx' is neither"),  # graphs lie at the top
        ("graph_evil.onnx.py", b"import os", "member 'graph_evil.onnx.py' is neither"),
        (
            "transformer/tokenizer_config.json",
            json.dumps({"auto_map": {"AutoTokenizer": ["evil.Tokenizer", None]}}).encode(),
            "transformer/tokenizer_config.json: auto_map asks to import or run code",
        ),
        ("transformer/config.json", b"{not json", "transformer/config.json: not JSON (Expecting property name"),
        ("config.json", b"[1, 2", "config.json: not JSON ("),
        (
            "config.json",
            json.dumps({"model": {"encoder": {"type": "subprocess.Popen", "args": ["touch", "x"]}}}).encode(),
            "config.json: model.encoder.type 'subprocess.Popen' asks to import or run code",
        ),
        (
            "config.json",
            json.dumps({"model": {"tokens": {"tokenizer_kwargs": {"trust_remote_code": 1}}}}).encode(),
            "config.json: model.tokens.tokenizer_kwargs.trust_remote_code asks to import or run code",
        ),
    ],
)
def test_members_that_are_code_or_ask_for_it_are_refused_before_anything_is_written(tmp_path, member, data, refusal):
    archive = str(tmp_path / "model.tar.gz")
    with tarfile.open(archive, "w:gz") as tar:
        add_bytes(tar, "weights.th", b"")
        if member != "config.json":
            add_bytes(tar, "config.json", b"{}")
        add_bytes(tar, member, data)
    with pytest.raises(ArchiveError) as refused:
        extract_archive(archive, str(tmp_path / "out"))
    assert str(refused.value).startswith(f"{archive}: ") and refusal in str(refused.value)
    assert not os.path.exists(tmp_path / "out") or os.listdir(tmp_path / "out") == []


def test_an_inference_graph_beside_the_weights_is_a_member_a_model_needs():
    assert member_kind_problem(tarfile.TarInfo("graph-sentences.onnx")) is None
    assert member_kind_problem(tarfile.TarInfo("graphs.json")) is None


def test_data_and_harmless_keys_pass():
    assert code_request({"transformer_kwargs": {"trust_remote_code": False}, "model": {"type": "srl_zoo"}}) is None
    assert code_request({"a": [{"auto_map": {}}]}) == "a[0].auto_map"
    assert code_request({"model": {"type": "my.module.Part"}}) is None  # a transformer's config: no part types
    assert code_request({"model": {"type": "my.module.Part"}}, is_model_config=True) == "model.type 'my.module.Part'"
    assert no_code_kwargs({"trust_remote_code": True, "revision": "x"}) == {
        "trust_remote_code": False, "local_files_only": True, "revision": "x"
    }  # fmt: skip


PEAK_MEMORY = """
import resource, sys
from srl_zoo.archive_files import ArchiveError, extract_archive
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
try:
    extract_archive(sys.argv[1], sys.argv[2])
except ArchiveError as error:
    print(error, file=sys.stderr)
print((resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before) // 1024)
"""


def lying_gzip(path: str, zeros: int) -> str:
    """An archive whose `weights.th` is `zeros` bytes of zeros and whose gzip trailer claims 4,096 bytes."""
    with tarfile.open(path, "w:gz", compresslevel=1) as tar:
        add_bytes(tar, "config.json", b"{}")
        info = tarfile.TarInfo("weights.th")
        info.size = zeros
        tar.addfile(info, io.BufferedReader(io.BytesIO(bytes(zeros))))  # type: ignore[arg-type]
    with open(path, "r+b") as handle:
        handle.seek(-4, os.SEEK_END)
        handle.write((4096).to_bytes(4, "little"))
    return path


def test_a_lying_gzip_is_bounded_by_the_bytes_it_decompresses(tmp_path):
    """Its trailer says 4 KB, its weights are 400 MiB of zeros: refused at the limit (64 MiB here), having held
    no more than that in memory (the trailer once sent it whole into memory)."""
    archive = lying_gzip(str(tmp_path / "bomb.tar.gz"), 400 * 1024 * 1024)
    assert os.path.getsize(archive) < 2 * 1024 * 1024
    environment = {**os.environ, "SRL_ZOO_MAX_ARCHIVE_BYTES": str(64 * 1024 * 1024)}
    run = subprocess.run(
        [sys.executable, "-c", PEAK_MEMORY, archive, str(tmp_path / "out")],
        capture_output=True, text=True, env=environment, cwd=REPO_ROOT,
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    assert "decompresses to more than 67,108,864 bytes" in run.stderr and "SRL_ZOO_MAX_ARCHIVE_BYTES" in run.stderr
    assert int(run.stdout.split()[-1]) < 200, "MiB more at the peak than before extracting"
    assert not os.path.exists(tmp_path / "out") or os.listdir(tmp_path / "out") == []


def test_an_archive_larger_than_memory_holds_is_read_from_the_file_within_the_limit(tmp_path, monkeypatch):
    monkeypatch.setattr(archive_files, "IN_MEMORY_BYTES", 4096)
    archive = str(tmp_path / "model.tar.gz")
    with tarfile.open(archive, "w:gz") as tar:
        add_bytes(tar, "config.json", b"{}")
        add_bytes(tar, "weights.th", bytes(100_000))
    extract_archive(archive, str(tmp_path / "out"))
    assert os.path.getsize(tmp_path / "out" / "weights.th") == 100_000
    with pytest.raises(ArchiveError, match="decompresses to more than 50,000 bytes"):
        extract_archive(archive, str(tmp_path / "again"), {"SRL_ZOO_MAX_ARCHIVE_BYTES": "50_000"})
    with pytest.raises(ValueError, match="SRL_ZOO_MAX_ARCHIVE_BYTES='lots': expected a number of bytes"):
        extract_archive(archive, str(tmp_path / "again"), {"SRL_ZOO_MAX_ARCHIVE_BYTES": "lots"})


def _config_change(change: Callable[[dict], None]) -> Callable[[str, bytes], Optional[bytes]]:
    def rewrite(name: str, data: bytes) -> bytes:
        if name != "config.json":
            return data
        config = json.loads(data)
        change(config)
        return json.dumps(config).encode()

    return rewrite


def _unknown_encoder(config: dict) -> None:
    config["model"]["frame_scorer"]["encoder"]["type"] = "no_such_encoder"


def _first_weight_widened(name: str, data: bytes) -> bytes:
    if name != "weights.th":
        return data
    weights = torch.load(io.BytesIO(data), weights_only=True)
    first = sorted(weights)[0]
    weights[first] = torch.zeros(*[size + 1 for size in weights[first].shape])
    saved = io.BytesIO()
    torch.save(weights, saved)
    return saved.getvalue()


REFUSED = {
    "unknown part": (
        _config_change(_unknown_encoder),
        "config.json: no_such_encoder not in acceptable choices for model.frame_scorer.encoder.type",
    ),
    "wrong-shape weights": (_first_weight_widened, "of another shape"),
    "empty weights": (lambda name, data: b"" if name == "weights.th" else data, "weights.th: not a plain weights"),
    "config not JSON": (lambda name, data: b"{" if name == "config.json" else data, "config.json: not JSON"),
    "no config": (lambda name, data: None if name == "config.json" else data, "no config.json: not a model archive"),
}


@pytest.mark.parametrize("kind", sorted(REFUSED))
def test_every_refused_archive_is_one_line_naming_it_and_leaves_the_cache_empty(
    kind, predicate_model_archive, tmp_path, cache
):
    change, reason = REFUSED[kind]
    refused = rewritten(predicate_model_archive, str(tmp_path / "refused.tar.gz"), change)
    with pytest.raises(ArchiveError) as error:
        srl_zoo.load(refused)
    assert str(error.value).startswith(f"{refused}: ") and reason in str(error.value), str(error.value)
    assert "\n" not in str(error.value)
    assert not os.path.exists(cache) or os.listdir(cache) == []


ACCURATE = os.path.join(REPO_ROOT, "models", "ewt-english-accurate.tar.gz")


class _Payload:
    """What a pickled weights file can hold: unpickling it writes `marker`."""

    def __init__(self, marker: str) -> None:
        self.marker = marker

    def __reduce__(self):  # type: ignore[no-untyped-def]
        return exec, (f"open({self.marker!r}, 'w').write('ran')",)


def folder_with_a_pickle(folder: str, marker: str) -> str:
    """A transformer folder outside any archive whose sharded-weights index names a pickle that writes `marker`."""
    import pickle

    os.makedirs(folder)
    with tarfile.open(ACCURATE) as archive:
        config = archive.extractfile("transformer/config.json").read()  # type: ignore[union-attr]
    with open(os.path.join(folder, "config.json"), "wb") as handle:
        handle.write(config)
    index = {"metadata": {}, "weight_map": {"embeddings.word_embeddings.weight": "payload.bin"}}
    with open(os.path.join(folder, "pytorch_model.bin.index.json"), "w", encoding="utf-8") as handle:
        json.dump(index, handle)
    with open(os.path.join(folder, "payload.bin"), "wb") as handle:
        pickle.dump(_Payload(marker), handle)
    return folder


def subfolder_archive(target: str, subfolder: str) -> str:
    """The accurate model with its embedder's `transformer_kwargs.subfolder` set to `subfolder`."""

    def change(config: dict) -> None:
        embedder = config["model"]["text_field_embedder"]["token_embedders"]["tokens"]
        embedder["transformer_kwargs"] = {**embedder.get("transformer_kwargs", {}), "subfolder": subfolder}

    return rewritten(ACCURATE, target, _config_change(change))


@pytest.mark.parametrize("outside", ["absolute", "climbing"])
def test_a_subfolder_outside_the_archive_is_refused_and_its_pickle_never_runs(tmp_path, cache, monkeypatch, outside):
    monkeypatch.setenv("TORCH_FORCE_NO_WEIGHTS_ONLY_LOAD", "1")  # what some users set for old checkpoints
    marker = str(tmp_path / "payload_ran")
    elsewhere = folder_with_a_pickle(str(tmp_path / "elsewhere"), marker)
    subfolder = elsewhere if outside == "absolute" else "../../../../../../../.." + elsewhere
    hostile = subfolder_archive(str(tmp_path / "subfolder.tar.gz"), subfolder)
    with pytest.raises(ArchiveError) as refused:
        srl_zoo.load(hostile)
    expected = (
        f"{hostile}: refused, nothing was extracted: config.json: "
        f"model.text_field_embedder.token_embedders.tokens.transformer_kwargs.subfolder {subfolder!r} would read "
        "files outside the archive"
    )
    assert str(refused.value).startswith(expected) and "\n" not in str(refused.value)
    assert_label_command_refuses(hostile, str(refused.value), tmp_path, cache)
    assert not os.path.exists(marker)
    assert not os.path.exists(cache) or os.listdir(cache) == []


@pytest.mark.parametrize(
    "option, value",
    [("cache_dir", "/tmp"), ("config", "/etc/elsewhere/config.json"), ("weights_only", False), ("subfolder", 3)],
)
def test_loading_options_that_choose_other_files_are_refused(option, value):
    config = {"model": {"embedder": {"tokenizer_kwargs": {"trust_remote_code": False, option: value}}}}
    assert reaching_outside(config) == f"model.embedder.tokenizer_kwargs.{option} {value!r}"
    assert reaching_outside({"model": {"embedder": {"transformer_kwargs": {"subfolder": "inside/here"}}}}) is None
    assert reaching_outside({"model": {"embedder": {"transformer_kwargs": {"hidden_dropout_prob": 0.1}}}}) is None


def test_a_nested_transformer_config_asking_for_code_is_refused(tmp_path):
    archive = str(tmp_path / "model.tar.gz")
    with tarfile.open(archive, "w:gz") as tar:
        add_bytes(tar, "config.json", b"{}")
        add_bytes(tar, "transformer/sub/config.json", json.dumps({"auto_map": {"AutoModel": "evil.Model"}}).encode())
    with pytest.raises(ArchiveError) as refused:
        extract_archive(archive, str(tmp_path / "out"))
    assert "transformer/sub/config.json: auto_map asks to import or run code" in str(refused.value)
    assert not os.path.exists(tmp_path / "out") or os.listdir(tmp_path / "out") == []
