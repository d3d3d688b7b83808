"""The labeling network exported whole to inference graphs: an archive with graphs labels through them (no torch
imported, nothing written under a fresh HOME) and gives the eager torch path's tags, its scores within 1e-4."""

import json
import os
import subprocess
import sys
import tarfile

import pytest

from srl_zoo.archive_cache import extracted_archive
from srl_zoo.graphs.contract import MANIFEST
from srl_zoo.graphs.labeler import GraphLabeler
from srl_zoo.labelers import load
from srl_zoo.runtime.graph_export import archive_with_graphs
from srl_zoo.runtime.labeler import RuntimeLabeler
from tests.conftest import REPO_ROOT
from tests.runtime.test_runtime_labels import dev_requests

pytestmark = pytest.mark.slow  # exports the shipped default's network

SHIPPED = os.path.join(REPO_ROOT, "models", "ewt-english.tar.gz")


@pytest.fixture(scope="module")
def graph_archive(tmp_path_factory) -> str:
    """The shipped default with its network's graphs beside its weights, as `srl-zoo export --graphs` writes them."""
    return archive_with_graphs(SHIPPED, str(tmp_path_factory.mktemp("with-graphs") / "model.tar"))


def test_the_graphs_label_as_the_eager_network_does(graph_archive):
    requests = dev_requests(20)
    requests.append({"tokens": ["Unbelievably", ",", "the", "Hyderabadi", "biryani", "disappeared", "."]})
    graphs = load(graph_archive)
    assert isinstance(graphs, GraphLabeler) and graphs.precision == "float32"
    eager = load(graph_archive, precision="bfloat16")  # a precision the graphs do not run: torch's labeler
    assert isinstance(eager, RuntimeLabeler)
    eager = RuntimeLabeler(eager.model, precision="float32")
    from_graphs, from_torch = graphs.label_tokenized(requests), eager.label_tokenized(requests)
    assert sum(len(sentence["frames"]) for sentence in from_torch) > 40
    for ours, theirs in zip(from_graphs, from_torch, strict=True):
        assert [frame["tags"] for frame in ours["frames"]] == [frame["tags"] for frame in theirs["frames"]]
        assert [frame["predicate"] | {"score": 0} for frame in ours["frames"]] == [
            frame["predicate"] | {"score": 0} for frame in theirs["frames"]
        ]
        for frame, other in zip(ours["frames"], theirs["frames"], strict=True):
            assert frame["predicate"]["score"] == pytest.approx(other["predicate"]["score"], abs=1e-4)
            for argument, counterpart in zip(frame["arguments"], other["arguments"], strict=True):
                assert argument["score"] == pytest.approx(counterpart["score"], abs=1e-4)


def test_the_manifest_says_what_each_graph_reads_and_gives(graph_archive):
    with (
        extracted_archive(graph_archive) as folder,
        open(os.path.join(folder, MANIFEST), encoding="utf-8") as handle,
    ):
        manifest = json.load(handle)
    assert manifest["graphs"]["sentences"]["inputs"][-1] == "word_mask"
    assert manifest["graphs"]["frames"]["outputs"] == ["tag_scores"]
    assert manifest["decoder"]["type"] == "crf" and manifest["predicate_head"]["type"] == "tagger"
    assert manifest["score_temperature"] == 1.25
    # every weight of the float32 graphs is read from weights.th: what they hold themselves is a few constants
    assert manifest["embedded_bytes"] < 100_000
    # the int8 graphs hold their int8 products' weights (and the BiLSTM's, whose gates the export reorders) alone
    assert manifest["int8_embedded_bytes"] < 0.25 * tarred_size(SHIPPED)
    assert os.path.getsize(graph_archive) < 1.3 * tarred_size(SHIPPED)


def tarred_size(archive: str) -> int:
    """The bytes of `archive`'s members (what an uncompressed copy of it holds, headers aside)."""
    with tarfile.open(archive) as members:
        return sum(member.size for member in members)


LABEL_WITHOUT_TORCH = """
import json, sys
for name in ("torch", "allennlp", "transformers"):
    sys.modules[name] = None  # importing it raises ImportError
import srl_zoo
labeler = srl_zoo.load(sys.argv[1])
print(json.dumps(labeler("Bush nominated two judges on Tuesday.")))
"""


def test_an_archive_with_graphs_labels_without_torch_and_writes_nothing_under_home(graph_archive, tmp_path):
    home = tmp_path / "home"
    home.mkdir()
    environment = {key: value for key, value in os.environ.items() if not key.startswith(("SRL_ZOO", "XDG_"))} | {
        "HOME": str(home),
        "SRL_ZOO_CACHE": str(tmp_path / "cache"),
    }
    done = subprocess.run(
        [sys.executable, "-c", LABEL_WITHOUT_TORCH, graph_archive],
        capture_output=True, text=True, cwd=tmp_path, env=environment, timeout=600,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    (sentence,) = json.loads(done.stdout.strip().splitlines()[-1])
    assert [frame["description"] for frame in sentence["frames"]] == [
        "[ARG0: Bush] [V: nominated] [ARG1: two judges] [ARGM-TMP: on Tuesday] ."
    ]
    assert sorted(str(path.relative_to(home)) for path in home.rglob("*")) == []


def test_the_int8_graphs_are_standard_operators_that_keep_the_scores_float32(graph_archive):
    import onnx

    with extracted_archive(graph_archive) as folder:
        frames = onnx.load(os.path.join(folder, "graph-frames-int8.onnx"), load_external_data=False)
        sentences = onnx.load(os.path.join(folder, "graph-sentences-int8.onnx"), load_external_data=False)
    for graph in (frames, sentences):
        assert {node.domain for node in graph.graph.node} <= {"", "ai.onnx"}
        assert any(node.op_type == "MatMulInteger" for node in graph.graph.node)
    assert first_products(frames, "tag_scores") == {"MatMul"}  # float32: int8 there cost the default 0.73 F1
    transformer = [n for n in sentences.graph.node if n.op_type.startswith("MatMul") and "transformer" in n.name]
    assert transformer and {node.op_type for node in transformer} == {"MatMul"}


def test_int8_is_asked_for_by_name_and_auto_needs_its_recorded_f1(graph_archive):
    assert load(graph_archive).precision == "float32"  # no F1 recorded for the graphs: auto keeps float32
    int8 = load(graph_archive, precision="int8")
    assert isinstance(int8, GraphLabeler) and int8.precision == "int8"
    requests = dev_requests(20)
    ours, theirs = int8.label_tokenized(requests), load(graph_archive).label_tokenized(requests)
    pairs = [zip(x["frames"], y["frames"], strict=True) for x, y in zip(ours, theirs, strict=True)]
    tags = [(a["tags"], b["tags"]) for frames in pairs for a, b in frames]
    assert len(tags) > 40 and sum(a == b for a, b in tags) >= 0.9 * len(tags)


def first_products(model, output: str) -> set[str]:
    """The operators of the first matrix products on the paths back from the ONNX `model`'s `output`."""
    producers = {name: node for node in model.graph.node for name in node.output}
    found, waiting, seen = set(), [output], set()
    while waiting:
        node = producers.get(waiting.pop())
        if node is None or node.name in seen:
            continue
        seen.add(node.name)
        if node.op_type in ("MatMul", "MatMulInteger"):
            found.add(node.op_type)
        else:
            waiting.extend(node.input)
    return found
