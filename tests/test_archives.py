"""Hostile and broken model archives: nothing is written outside the extraction folder, no pickled
payload runs, no temporary folder is left behind, and the error names the archive."""

import builtins
import io
import os
import tarfile
import tempfile
from pathlib import Path

import pytest
import torch
from allennlp.models.archival import load_archive
from allennlp.predictors import Predictor

import srl_zoo.plugin
from srl_zoo.archives import ArchiveError, extract_archive, load_weights
from srl_zoo.commands.srl_export import export_archive

pytestmark = pytest.mark.slow  # trains a model, loads one or starts processes: not in `make test-fast`


@pytest.fixture
def private_tempdir(tmp_path, monkeypatch):
    """Temporary folders of this test go to a folder of its own, so leftovers can be counted."""
    directory = tmp_path / "tmp"
    directory.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(directory))
    return directory


def add_bytes(archive: tarfile.TarFile, name: str, data: bytes) -> None:
    info = tarfile.TarInfo(name)
    info.size = len(data)
    archive.addfile(info, io.BytesIO(data))


def make_archive(path, build) -> str:
    with tarfile.open(path, "w:gz") as archive:
        add_bytes(archive, "config.json", b"{}")
        build(archive)
    return str(path)


def export(archive_path: str) -> None:
    export_archive(archive_path, archive_path + ".exported.tar.gz")


def assert_refused(archive_path: str, outside, private_tempdir, fragment: str) -> None:
    """Every entry point that opens an archive refuses it: the API, allennlp's loader (allennlp
    predict/evaluate, srl-label, srl-evaluate) and srl-export."""
    for load in (srl_zoo.load, load_archive, Predictor.from_path, export):
        with pytest.raises(ArchiveError) as error:
            load(archive_path)
        assert archive_path in str(error.value) and fragment in str(error.value)
    assert not os.path.exists(outside), "a member was written outside the extraction folder"
    assert os.listdir(private_tempdir) == [], "a temporary folder was left behind"


def test_path_traversal_is_refused(tmp_path, private_tempdir):
    outside = tmp_path / "escaped.txt"
    depth = "../" * (len(str(private_tempdir).split(os.sep)) + 2)
    name = depth + str(outside).lstrip("/")
    archive = make_archive(tmp_path / "traversal.tar.gz", lambda a: add_bytes(a, name, b"owned"))
    assert_refused(archive, outside, private_tempdir, "'..'")


def test_absolute_path_is_refused(tmp_path, private_tempdir):
    outside = tmp_path / "absolute.txt"
    archive = make_archive(tmp_path / "absolute.tar.gz", lambda a: add_bytes(a, str(outside), b"owned"))
    assert_refused(archive, outside, private_tempdir, "absolute path")


def test_symlink_then_file_through_it_is_refused(tmp_path, private_tempdir):
    target = tmp_path / "target_dir"
    target.mkdir()

    def build(archive):
        link = tarfile.TarInfo("vocabulary")
        link.type = tarfile.SYMTYPE
        link.linkname = str(target)
        archive.addfile(link)
        add_bytes(archive, "vocabulary/labels.txt", b"owned")

    archive = make_archive(tmp_path / "symlink.tar.gz", build)
    assert_refused(archive, target / "labels.txt", private_tempdir, "is a link")


def test_hard_link_and_device_are_refused(tmp_path):
    def hard_link(archive):
        link = tarfile.TarInfo("weights.th")
        link.type = tarfile.LNKTYPE
        link.linkname = "/etc/passwd"
        archive.addfile(link)

    def device(archive):
        node = tarfile.TarInfo("weights.th")
        node.type = tarfile.CHRTYPE
        archive.addfile(node)

    for name, build, fragment in (("hard", hard_link, "is a link"), ("device", device, "device")):
        path = make_archive(tmp_path / f"{name}.tar.gz", build)
        with pytest.raises(ArchiveError, match=fragment):
            extract_archive(path, str(tmp_path / f"{name}_out"))


def test_truncated_archive_names_the_file_and_leaves_no_folder(predicate_model_archive, tmp_path, private_tempdir):
    data = Path(predicate_model_archive).read_bytes()
    truncated = tmp_path / "truncated.tar.gz"
    truncated.write_bytes(data[: len(data) // 2])
    assert_refused(str(truncated), tmp_path / "nothing", private_tempdir, "truncated or corrupt")


def test_missing_archive_names_the_file(tmp_path, private_tempdir):
    missing = str(tmp_path / "missing.tar.gz")
    with pytest.raises(ArchiveError, match="no such archive file"):
        extract_archive(missing, str(tmp_path / "out"))


class Payload:
    """Unpickling it runs code: it writes the marker file."""

    def __init__(self, marker: str) -> None:
        self.marker = marker

    def __reduce__(self):
        return builtins.exec, (f"open({self.marker!r}, 'w').write('ran')",)


def test_pickled_payload_in_weights_does_not_run(predicate_model_archive, tmp_path, private_tempdir, monkeypatch):
    marker = tmp_path / "payload_ran"
    weights = io.BytesIO()
    torch.save({"weights": Payload(str(marker))}, weights)
    hostile = tmp_path / "payload.tar.gz"
    with tarfile.open(predicate_model_archive, "r:gz") as source, tarfile.open(hostile, "w:gz") as target:
        for member in source.getmembers():
            if member.name == "weights.th":
                add_bytes(target, "weights.th", weights.getvalue())
            elif member.isfile():
                target.addfile(member, source.extractfile(member))
            else:
                target.addfile(member)
    monkeypatch.setenv("TORCH_FORCE_NO_WEIGHTS_ONLY_LOAD", "1")  # what the README used to advise for --recover
    with pytest.raises(ArchiveError, match="weights.th: not a plain weights file"):
        srl_zoo.load(str(hostile))
    assert not marker.exists(), "the pickled payload ran"
    assert os.listdir(private_tempdir) == []


def test_plain_weights_load_with_the_variable_set(predicate_model_archive, tmp_path, monkeypatch):
    monkeypatch.setenv("TORCH_FORCE_NO_WEIGHTS_ONLY_LOAD", "1")
    labeler = srl_zoo.load(predicate_model_archive)
    assert labeler("The cat sat on the mat .")[0]["words"][1] == "cat"
    state_file = tmp_path / "state.th"
    torch.save({"a": torch.ones(2)}, state_file)
    assert torch.equal(load_weights(str(state_file))["a"], torch.ones(2))


def with_weights(archive: str, target: str, weights: bytes) -> str:
    """A copy of `archive` whose `weights.th` holds `weights`."""
    with tarfile.open(archive, "r:gz") as source, tarfile.open(target, "w:gz") as copy:
        for member in source.getmembers():
            if member.name == "weights.th":
                add_bytes(copy, "weights.th", weights)
            elif member.isfile():
                copy.addfile(member, source.extractfile(member))
            else:
                copy.addfile(member)
    return target


def saved(state: dict) -> bytes:
    buffer = io.BytesIO()
    torch.save(state, buffer)
    return buffer.getvalue()


def weight_variants(archive: str) -> dict[str, tuple[bytes, str]]:
    """Broken weights for `archive`'s model, each with what its one-line refusal says."""
    with tarfile.open(archive, "r:gz") as source:
        state = torch.load(io.BytesIO(source.extractfile("weights.th").read()), weights_only=True)
    keys = sorted(state)
    half = {key: state[key] for key in keys[: len(keys) // 2]}
    renamed = {**state, "frame_scorer.no_such_part.weight": state[keys[0]]}
    matrix = next(key for key in keys if state[key].dim() == 2)
    reshaped = {**state, matrix: torch.cat([state[matrix], state[matrix][:1]])}  # another model's: one row more
    return {
        "empty": (saved({}), f"the weights do not fit the model: {len(keys)} missing"),
        "half": (saved(half), f"the weights do not fit the model: {len(keys) - len(half)} missing"),
        "wrong key": (saved(renamed), "frame_scorer.no_such_part.weight"),
        "random bytes": (os.urandom(4096), "weights.th: not a plain weights file"),
        "another shape": (saved(reshaped), f"1 of another shape (first: {matrix} is "),
    }


@pytest.mark.parametrize("variant", ["empty", "half", "wrong key", "random bytes", "another shape"])
def test_weights_that_do_not_make_the_model_whole_are_refused_naming_the_archive(
    predicate_model_archive, tmp_path, private_tempdir, variant
):
    """allennlp let an empty or half `weights.th` through (its `authorized_missing_keys` filter dropped every
    missing key once a transformer embedder declared one) and the model labeled with random weights."""
    weights, fragment = weight_variants(predicate_model_archive)[variant]
    broken = with_weights(predicate_model_archive, str(tmp_path / "broken.tar.gz"), weights)
    from srl_zoo.archives import load_model_archive

    for load in (srl_zoo.load, load_model_archive):
        with pytest.raises(ArchiveError) as error:
            load(broken)
        message = str(error.value)
        assert message.startswith(f"{broken}: weights.th: ") and fragment in message and "\n" not in message
    assert os.listdir(private_tempdir) == []


@pytest.mark.parametrize("variant", ["half", "another shape"])
def test_every_command_refuses_unfit_weights_in_one_line(predicate_model_archive, tmp_path, variant):
    """`srl-zoo label`, `evaluate` and `serve` say the same one line for an archive missing weights or holding
    weights of another shape (another model's)."""
    from tests.conftest import fixture_path
    from tests.test_cli import one_error_line, run

    weights, fragment = weight_variants(predicate_model_archive)[variant]
    broken = with_weights(predicate_model_archive, str(tmp_path / "half.tar.gz"), weights)
    text = tmp_path / "in.txt"
    text.write_text("The cat sat on the mat.\n", encoding="utf-8")
    gold = fixture_path("conll2012", "sample.gold_conll")
    for arguments in (
        ["label", broken, str(text), "-o", str(tmp_path / "out.jsonl")],
        ["evaluate", broken, gold, "--output-dir", str(tmp_path / "scored")],
        ["serve", broken, "--port", "0"],
    ):
        line = one_error_line(run(*arguments))
        assert broken in line and fragment in line, (arguments[0], line)
    assert not (tmp_path / "out.jsonl").exists()


def test_export_writes_only_the_members_it_knows(predicate_model_archive, tmp_path):
    """Data planted in the archive's vocabulary or transformer folder does not travel into the export, and an
    archive holding weights beside the model's (a pickle) is refused before export writes anything."""
    planted = str(tmp_path / "planted.tar.gz")
    with tarfile.open(predicate_model_archive, "r:gz") as source, tarfile.open(planted, "w:gz") as copy:
        for member in source.getmembers():
            copy.addfile(member, source.extractfile(member) if member.isfile() else None)
        add_bytes(copy, "vocabulary/extra.json", b"{}")
        add_bytes(copy, "notes.txt", b"stray")
        add_bytes(copy, "transformer/notes.md", b"stray")
        add_bytes(copy, "transformer/vocab.txt", b"[PAD]\n")
    exported = str(tmp_path / "exported.tar.gz")
    export_archive(planted, exported)
    with tarfile.open(exported, "r:gz") as archive:
        names = set(archive.getnames())
    assert not {"vocabulary/extra.json", "notes.txt", "transformer/notes.md"} & names
    assert "transformer/vocab.txt" in names  # the transformer's tokenizer files do travel
    assert {"config.json", "weights.th"} <= names and any(n.startswith("vocabulary/") for n in names)
    pickle = tmp_path / "pickle.tar.gz"
    with tarfile.open(predicate_model_archive, "r:gz") as source, tarfile.open(pickle, "w:gz") as copy:
        for member in source.getmembers():
            copy.addfile(member, source.extractfile(member) if member.isfile() else None)
        add_bytes(copy, "transformer/pytorch_model.bin", saved({"weights": torch.ones(2)}))
    with pytest.raises(ArchiveError, match=r"pickle.tar.gz: .*'transformer/pytorch_model.bin' is neither a file"):
        export_archive(str(pickle), str(tmp_path / "refused.tar.gz"))
    assert not os.path.exists(tmp_path / "refused.tar.gz")
    assert srl_zoo.load(exported)("The cat sat on the mat .")[0]["words"][1] == "cat"
