"""srl_zoo beside allennlp-models: both import in one process (either order), srl_zoo's names never
clash, the old names stay where they cannot, and archives saved under the old model name load."""

import json
import os
import subprocess
import sys

import pytest

from tests.conftest import REPO_ROOT

pytestmark = pytest.mark.slow  # trains a model, loads one or starts processes: not in `make test-fast`

SHIPPED = os.path.join(REPO_ROOT, "models", "ewt-english-glove.tar.gz")  # the previous shipped model, saved as "srl"
# `make install` puts allennlp-models (and conllu, which it imports) here, outside the venv
ALLENNLP_MODELS = os.path.join(REPO_ROOT, ".cache", "allennlp-models")


def run_python(code: str, cwd, with_allennlp_models: bool = False) -> str:
    environment = dict(os.environ)
    if with_allennlp_models:
        assert os.path.isdir(os.path.join(ALLENNLP_MODELS, "allennlp_models")), "run `make install` first"
        environment["PYTHONPATH"] = os.pathsep.join(filter(None, [ALLENNLP_MODELS, environment.get("PYTHONPATH")]))
    finished = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=cwd, env=environment)
    assert finished.returncode == 0, finished.stderr[-2000:]
    return finished.stdout


@pytest.mark.parametrize("first", ["srl_zoo.plugin", "allennlp_models.structured_prediction"])
def test_both_packages_in_one_process(tmp_path, first):
    second = "allennlp_models.structured_prediction" if first == "srl_zoo.plugin" else "srl_zoo.plugin"
    output = run_python(
        f"import {first}; import {second}\n"
        "from allennlp.models import Model\nfrom allennlp.predictors import Predictor\n"
        "print(Model.by_name('srl').__name__, Model.by_name('srl_zoo').__name__)\n"
        "print(Predictor.by_name('semantic_role_labeling').__name__, Predictor.by_name('srl').__name__)\n"
        "import srl_zoo.api\n"
        f"labeler = srl_zoo.api.load({SHIPPED!r})\n"  # saved as "srl": read as srl_zoo's model
        "print(type(labeler.predictor.model).__name__, len(labeler('They start in May.')[0]['frames']))\n",
        tmp_path,
        with_allennlp_models=True,
    )
    assert output.split("\n")[:3] == [
        "SemanticRoleLabeler SrlModel",  # allennlp-models keeps its names
        "SemanticRoleLabelerPredictor SrlPredictor",
        "SrlModel 1",
    ]


def test_old_predictor_names_are_aliases_without_allennlp_models_and_the_model_name_is_srl_zoo(tmp_path):
    output = run_python(
        "import srl_zoo.plugin\n"
        "from allennlp.models import Model\nfrom allennlp.predictors import Predictor\n"
        "print('srl' in Model.list_available(), Model.by_name('srl_zoo').__name__)\n"
        "srl_zoo_predictor = Predictor.by_name('srl_zoo')\n"
        "print(Predictor.by_name('semantic_role_labeling') is srl_zoo_predictor is Predictor.by_name('srl'))\n",
        tmp_path,
    )
    assert output.split() == ["False", "SrlModel", "True"]  # archives saved as `srl` load: the upgrade reads them


def test_the_console_script_works_from_another_directory(tmp_path):
    script = os.path.join(os.path.dirname(sys.executable), "srl-zoo")
    assert os.path.exists(script), "pip install -e . installs the srl-zoo console script"
    (tmp_path / "corpus.txt").write_text("They start in May.\n", encoding="utf-8")
    label = subprocess.run(
        [script, "label", SHIPPED, "corpus.txt", "-o", "out.jsonl", "--no-progress"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
    )
    assert label.returncode == 0, label.stderr[-2000:]
    assert json.loads(label.stdout.splitlines()[-1])["sentences"] == 1
    assert " - INFO - " not in label.stderr  # quiet by default
    record = json.loads((tmp_path / "out.jsonl").read_text(encoding="utf-8"))
    assert record["sentences"][0]["frames"][0]["predicate"]["word"] == "start"
    (tmp_path / "in.jsonl").write_text(json.dumps({"sentence": "They start in May."}) + "\n", encoding="utf-8")
    predict = subprocess.run(
        [script, "predict", SHIPPED, "in.jsonl", "--output-file", "predicted.jsonl", "--silent", "--verbose"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
    )
    assert predict.returncode == 0, predict.stderr[-2000:]
    assert " - INFO - " in predict.stderr  # --verbose brings the INFO log back
    assert json.loads((tmp_path / "predicted.jsonl").read_text())["frames"][0]["predicate"]["word"] == "start"
    unknown = subprocess.run([script, "frobnicate"], capture_output=True, text=True, cwd=tmp_path)
    assert unknown.returncode != 0 and "unknown command 'frobnicate'" in unknown.stderr
