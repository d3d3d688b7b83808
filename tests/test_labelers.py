"""The front door's choice of labeler: an archive is extracted once, whichever labeler it then builds."""

import os

from srl_zoo import archive_cache
from srl_zoo.labelers import load_labeler
from srl_zoo.runtime.labeler import RuntimeLabeler
from tests.archive_rewriting import without_graphs
from tests.conftest import REPO_ROOT

SHIPPED = os.path.join(REPO_ROOT, "models", "ewt-english.tar.gz")


def test_an_archive_without_graphs_is_extracted_once_for_the_torch_runtime(monkeypatch, tmp_path):
    torch_only = without_graphs(SHIPPED, str(tmp_path / "torch-only.tar"))
    monkeypatch.setenv(archive_cache.CACHE_VARIABLE, "off")  # every extraction a full one, into a temporary folder
    extractions: list[str] = []
    extract = archive_cache.extract_archive

    def counted(path: str, directory: str, *rest) -> None:
        extractions.append(path)
        extract(path, directory, *rest)

    monkeypatch.setattr(archive_cache, "extract_archive", counted)
    labeler = load_labeler(torch_only, precision="float32")
    assert isinstance(labeler, RuntimeLabeler)
    assert extractions == [torch_only]
    assert labeler.label_tokenized([{"tokens": ["He", "left", "."]}])[0]["frames"]
