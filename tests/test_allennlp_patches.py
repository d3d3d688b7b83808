"""What srl_zoo changes in allennlp on its allennlp side: each named patch is in place after `import srl_zoo.plugin`,
applying them again changes nothing (no double wrapping), and docs/architecture.md lists every one."""

import os

from allennlp.commands import train
from allennlp.common import Registrable, params
from allennlp.models import archival
from allennlp.models.model import Model
from allennlp.nn import util
from allennlp.predictors import Predictor
from allennlp.training import Checkpointer, Trainer
from transformers.models.bert.modeling_bert import BertSelfAttention

import srl_zoo.plugin  # noqa: F401
from srl_zoo import archives
from srl_zoo.allennlp_patches import PATCHES, apply_all
from srl_zoo.config_defaults import CONFIG_VARIABLES
from srl_zoo.pretrained.transformers_version import transformers_5_or_later
from tests.conftest import REPO_ROOT


def test_every_patch_is_in_place_after_import():
    assert archival.extracted_archive is archives.safe_extracted_archive
    assert getattr(util.read_state_dict, "srl_zoo_safe", False)
    assert getattr(Model.load, "srl_zoo_checked", False)
    assert Checkpointer.default_implementation == "srl_zoo_atomic"
    assert Trainer.default_implementation == "srl_zoo_gradient_descent"
    assert "srl" in Registrable._registry[Predictor]  # registered with the parts, not a patch
    assert set(CONFIG_VARIABLES) <= set(params._environment_variables())
    assert getattr(BertSelfAttention.forward, "srl_zoo_fused", False) != transformers_5_or_later()


def test_applying_the_patches_again_wraps_nothing_twice():
    def patched():
        return (
            util.read_state_dict,
            Model.load.__func__,
            archival.extracted_archive,
            BertSelfAttention.forward,
            params._environment_variables,
            train.archive_model,
            train.train_model,
        )

    before = patched()
    apply_all()
    assert patched() == before


def test_the_architecture_page_lists_every_patch_with_its_reason():
    with open(os.path.join(REPO_ROOT, "docs", "architecture.md"), encoding="utf-8") as handle:
        page = handle.read()
    names = [patch.name for patch in PATCHES]
    assert len(set(names)) == len(names)
    for patch in PATCHES:
        assert f"**{patch.name}**" in page, f"docs/architecture.md does not list the patch {patch.name!r}"
        assert patch.why
