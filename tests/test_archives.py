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

import srl_zoo
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
