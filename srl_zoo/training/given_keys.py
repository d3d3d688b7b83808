"""The keys a part is given by the part that builds it (a config never sets them): for every part (`vocab`, the
trainer's `serialization_dir`, ...) and per kind of part (the Model gives a predicate head its `input_dim`, a
frame scorer gives its output layer `index_to_label`, ...). The config check refuses them in a config; the generated
reference marks them *given*. An encoder's input width is filled in too (the part holding the encoder builds it for
what it feeds it), but a config may still give it, as earlier configs did: it must then fit (`encoder_width`); the
reference marks it *from the parts*."""

from allennlp.modules import Seq2SeqEncoder
from allennlp.training.learning_rate_schedulers import LearningRateScheduler
from allennlp.training.optimizers import Optimizer

from srl_zoo.models.heads.auxiliary_task import AuxiliaryTask
from srl_zoo.models.heads.predicate_head import PredicateHead
from srl_zoo.modules.encoder_width import INPUT_WIDTH_KEYS
from srl_zoo.modules.frame_features import FrameFeatures
from srl_zoo.modules.frame_scorers.frame_scorer import FrameScorer
from srl_zoo.modules.frame_scorers.tag_output import TagOutput

#: keys every part is given where its constructor takes them
GIVEN = frozenset({"vocab", "serialization_dir", "ddp_accelerator", "local_rank", "world_size", "distributed", "model"})
#: keys the parts of a kind are given by the part that builds them
GIVEN_BY_KIND: dict[type, frozenset[str]] = {
    FrameScorer: frozenset({"input_dim", "frame_feature_dim"}),  # the Model: the words' and frame features' widths
    PredicateHead: frozenset({"input_dim"}),  # the Model: the scorer's sentence width
    AuxiliaryTask: frozenset({"input_dim"}),  # the Model: the scorer's sentence width
    FrameFeatures: frozenset({"word_dim"}),  # the Model: the embedder's width
    TagOutput: frozenset({"index_to_label"}),  # the frame scorer: the vocabulary's labels
    Optimizer: frozenset({"model_parameters"}),  # the trainer
    LearningRateScheduler: frozenset({"optimizer"}),  # the trainer
}


#: keys filled in by the part that builds a part of the kind, which a config may still give if they fit
FOLLOWING_BY_KIND: dict[type, frozenset[str]] = {Seq2SeqEncoder: frozenset(INPUT_WIDTH_KEYS)}


def _keys_of_kind(table: dict[type, frozenset[str]], base: type) -> frozenset[str]:
    """The keys `table` lists for the kinds `base` is (or is a subclass of)."""
    kinds = [keys for kind, keys in table.items() if isinstance(base, type) and issubclass(base, kind)]
    return frozenset().union(*kinds)


def following_keys(base: type) -> frozenset[str]:
    """The keys of a part of kind `base` that follow the other parts (filled in; a config may give them if they fit)."""
    return _keys_of_kind(FOLLOWING_BY_KIND, base)


def given_keys(base: type) -> frozenset[str]:
    """The keys a part of kind `base` (or of a subclass of a kind) is given."""
    return GIVEN | _keys_of_kind(GIVEN_BY_KIND, base)
