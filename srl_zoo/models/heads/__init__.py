"""Heads on the sentence encodings: predicate identification and auxiliary tasks."""

from srl_zoo.models.heads.auxiliary_task import AuxiliaryTask
from srl_zoo.models.heads.dependency_parse import DependencyParseTask
from srl_zoo.models.heads.joint_pos_predicate import JointPosPredicateHead
from srl_zoo.models.heads.predicate_head import PredicateHead
from srl_zoo.models.heads.predicate_tagger import PredicateTaggerHead
from srl_zoo.parts.heads.predicate_finder import PredicateOutput
