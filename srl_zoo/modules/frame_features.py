"""The registrable frame-feature source: extra token features per (sentence, predicate) that a frame
scorer reads beside the words (AMN's associated memory; a parse, a retrieval)."""

import torch
from allennlp.common import Registrable
from allennlp.modules import TextFieldEmbedder
from torch import nn

from srl_zoo.parts.frame_features.frame_feature_inputs import FrameFeatureInputs


class FrameFeatures(nn.Module, Registrable):
    """`forward(FrameFeatureInputs)` returns `(batch, num_frames, seq_len, get_output_dim())` features
    (zeros for padded frames); the Model passes them to its frame scorer, which must be built for that
    width (`frame_feature_dim`). Built by the Model with `vocab` and `word_dim` (the embedder's width);
    `prepare` is called once when the model is built.

    Implementations: `"associated_memory"` (AMN, `srl_zoo/amn/associated_memory.py`) and
    `"marked_predicate_transformer"` (the predicate marked in the transformer's input, as `srl_bert`,
    `srl_zoo/modules/marked_predicate_transformer.py`).
    """

    default_implementation = "associated_memory"

    def get_output_dim(self) -> int:
        raise NotImplementedError

    def prepare(self, embedder: TextFieldEmbedder, predicts_pos: bool) -> None:
        """Check the model's other parts and read what must be read before training (e.g. a memory's
        training sentences), after the model's initializer ran.

        # Parameters

        embedder : the model's word embedder.
        predicts_pos : whether the model has a POS-tagging head (`FrameFeatureInputs.predicted_pos`).
        """

    def forward(self, inputs: FrameFeatureInputs) -> torch.Tensor:
        raise NotImplementedError
