"""Heads on the sentence encodings: predicate identification and auxiliary tasks."""

from srl_zoo.models.heads.auxiliary_task import AuxiliaryTask
from srl_zoo.models.heads.dependency_parse import DependencyParseTask
from srl_zoo.models.heads.joint_pos_predicate import JointPosPredicateHead
from srl_zoo.models.heads.predicate_head import PredicateHead, PredicateOutput
from srl_zoo.models.heads.predicate_tagger import PredicateTaggerHead
