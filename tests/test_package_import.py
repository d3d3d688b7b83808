"""Importing srl_zoo where optional parts are missing, as on a GPU image with allennlp's stand-in `spacy`
package (no pipeline factories), no rapidfuzz, Starlette, Ray, pyarrow or inference engine: the package and every
submodule still import (as `--include-package srl_zoo` does), and only the parts that need them are left out."""

import subprocess
import sys

import pytest

IMPORT_WITH_A_STAND_IN_SPACY = """
import sys
from spacy.language import Language
del Language.factory             # a stand-in spacy: no pipeline factories
sys.modules["rapidfuzz"] = None  # not installed: importing it raises ImportError
sys.modules["starlette"] = None  # nor the web service's framework
for extra in ("ray", "pyarrow", "onnx", "onnxruntime", "openvino"):  # nor the optional extras
    sys.modules[extra] = None
from allennlp.common.util import import_module_and_submodules
import_module_and_submodules("srl_zoo")
from srl_zoo.amn.neighbour_index import NeighbourIndex
print("imported", NeighbourIndex.__name__)
"""


def run_python(code: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)


def test_every_module_imports_with_a_stand_in_spacy_and_without_the_optional_extras():
    result = run_python(IMPORT_WITH_A_STAND_IN_SPACY)
    assert result.returncode == 0, result.stderr[-2000:]
    assert "imported NeighbourIndex" in result.stdout


def test_the_spacy_factory_is_registered_when_spacy_is_real():
    result = run_python("import srl_zoo, spacy\nprint('factory', spacy.blank('en').has_factory('srl_zoo'))")
    assert result.returncode == 0, result.stderr[-2000:]
    assert "factory True" in result.stdout


@pytest.mark.parametrize("module", ["torch", "allennlp", "_jsonnet"])
def test_without_its_dependencies_srl_zoo_says_what_to_run_in_one_line(module):
    """The allennlp side needs the pinned set (requirements.lock), which a plain `pip install .` does not bring."""
    program = f"import sys; sys.modules[{module!r}] = None\nimport srl_zoo.plugin"
    completed = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True)
    assert completed.returncode != 0
    last = completed.stderr.strip().splitlines()[-1]
    assert (
        last.startswith("srl_zoo.dependencies.MissingDependency: srl_zoo needs ")
        and "pip install --no-deps -r requirements.lock" in last
    )


def test_importing_srl_zoo_imports_neither_allennlp_nor_torch_and_the_runtime_no_allennlp():
    """`import srl_zoo` is cheap; the runtime's labeler brings torch but no allennlp, torchvision or scikit-learn."""
    program = (
        "import sys, srl_zoo\n"
        "names = {'allennlp', 'torch', 'torchvision', 'sklearn'}\n"
        "heavy = lambda: sorted({m.split('.')[0] for m in sys.modules} & names)\n"
        "print('after srl_zoo', heavy())\n"
        "import srl_zoo.runtime.labeler\n"
        "print('after the runtime', heavy())\n"
    )
    result = run_python(program)
    assert result.returncode == 0, result.stderr[-2000:]
    assert "after srl_zoo []" in result.stdout
    assert "after the runtime ['torch']" in result.stdout
