"""The `tagger` predicate head's math: a per-token linear classifier over predicate labels (plain torch; the
registered head, `srl_zoo.models.heads.predicate_tagger`, adds its loss and metrics)."""

from collections.abc import Sequence
from typing import Any, Optional

import torch
from torch import nn

from srl_zoo.config_fit import ConfigNeed, reads_one_layer
from srl_zoo.data.formats.labels import NOT_A_PREDICATE
from srl_zoo.frames.readable_frames import frame_file_senses as frame_file_senses_of
from srl_zoo.nn.json_tensor import json_to_tensor, tensor_to_json
from srl_zoo.parts.batch_inputs import BatchInputs
from srl_zoo.parts.encoders.encoded_sentences import EncodedSentences
from srl_zoo.parts.heads.predicate_finder import PredicateOutput
from srl_zoo.parts.heads.sense_table import SenseTable


def predicate_scores(probabilities: torch.Tensor, label_ids: torch.Tensor, not_a_predicate: int) -> torch.Tensor:
    """`(batch, seq_len)` the probability that each token is a predicate with its label: p(label) for a sense
    (or `Y`); for a token labeled `-` (a predicate the caller gave), p(any predicate label).

    # Parameters

    probabilities : `(batch, seq_len, num_predicate_labels)`; label_ids : `(batch, seq_len)` the labels chosen.
    not_a_predicate : the id of `-`.
    """
    chosen = probabilities.gather(-1, label_ids.unsqueeze(-1)).squeeze(-1)
    is_label = label_ids != not_a_predicate
    return torch.where(is_label, chosen, 1.0 - probabilities[..., not_a_predicate])


class PredicateTagger(nn.Module):
    """Predicts `-` (no predicate), a sense suffix (`01`, `LV`) or `Y` (a predicate in data without
    senses) for every token from one layer of the sentence encodings.

    # Parameters

    index_to_label : `{index: predicate label}` of the `predicate_senses` namespace.
    input_dim : width of the layer read (the Model supplies the frame scorer's).
    layer : which of `EncodedSentences.layers` to read (default the top one).
    restrict_senses : when not training, give each predicate the best of the senses its word had in
        training (a word never seen as a predicate: `01`), so that no sense is output that the
        training data never paired with the word. The table is filled from the gold labels of the
        training batches (with their `metadata` words) and travels in the state dict; whether a
        token is a predicate is not changed by it.
    frame_file_senses : with `restrict_senses`, a word never seen as a predicate in training chooses among
        the senses of the rolesets its lemma names in PropBank's English frame files (bundled; `01` where
        they name none) instead of taking `01`.
    """

    @classmethod
    def config_needs(cls, config: dict[str, Any]) -> list[ConfigNeed]:
        """The layer it reads exists (`srl_zoo.config_fit`): checked before the data is read."""
        return reads_one_layer(cls, config)

    def __init__(
        self,
        index_to_label: dict[int, str],
        input_dim: int,
        layer: int = -1,
        restrict_senses: bool = False,
        frame_file_senses: bool = True,
    ) -> None:
        super().__init__()
        self.build_tagger(index_to_label, input_dim, layer, restrict_senses, frame_file_senses)

    @classmethod
    def from_vocabulary(
        cls, vocabulary: dict[str, dict[int, str]], input_dim: int, **settings: Any
    ) -> "PredicateTagger":
        """The tagger over an archive's vocabulary (`{namespace: {index: label}}`: `predicate_senses`)."""
        return cls(vocabulary["predicate_senses"], input_dim, **settings)

    def build_tagger(
        self,
        index_to_label: dict[int, str],
        input_dim: int,
        layer: int,
        restrict_senses: bool,
        frame_file_senses: bool,
    ) -> None:
        """Make the classifier and the sense table (`__init__`'s parameters) on a module already initialised."""
        self.index_to_label = index_to_label
        self.not_a_predicate = {label: i for i, label in index_to_label.items()}[NOT_A_PREDICATE]
        self.layer = layer
        self.projection = nn.Linear(input_dim, len(index_to_label))
        self.senses: Optional[SenseTable] = None
        if restrict_senses:
            self.senses = SenseTable(
                index_to_label,
                self.not_a_predicate,
                unseen_senses=frame_file_senses_of if frame_file_senses else None,
            )
            self.register_buffer("sense_table", torch.zeros(0, dtype=torch.uint8))

    def label_of(self, label_id: int) -> str:
        """The predicate label (`-`, `01`, `Y`, ...) of `label_id`."""
        return self.index_to_label[label_id]

    def forward(
        self, sentences: EncodedSentences, mask: torch.Tensor, inputs: BatchInputs, update_metrics: bool = False
    ) -> PredicateOutput:
        """Each token's label id and score (`tag`), senses restricted by `inputs.words` when not training (the
        registered head adds its loss and metrics)."""
        _, label_ids, scores = self.tag(sentences, mask, inputs.words)
        return PredicateOutput(label_ids, scores=scores)

    def tag(
        self, sentences: EncodedSentences, mask: torch.Tensor, words: Optional[Sequence[Sequence[str]]]
    ) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        """The logits `(batch, seq_len, num_labels)`, each token's label id `(batch, seq_len)` (`-` on padding;
        senses restricted when not training and `words` are given) and its `predicate_scores` `(batch, seq_len)`."""
        logits = self.graph_logits(sentences)  # (batch, seq_len, num_predicate_labels)
        label_ids = logits.argmax(-1).masked_fill(~mask, self.not_a_predicate)
        if self.senses is not None and words is not None and not self.training:
            label_ids = self.senses.restrict(logits, label_ids, words)
        scores = predicate_scores(torch.softmax(logits.float(), dim=-1), label_ids, self.not_a_predicate)
        return logits, label_ids, scores

    def graph_logits(self, sentences: EncodedSentences) -> torch.Tensor:
        """`(batch, seq_len, num_labels)` the logits an inference graph gives for `graph_settings`' decoding."""
        return self.projection(sentences.layers[self.layer])

    def graph_settings(self) -> dict[str, Any]:
        """What decodes `graph_logits` outside torch (`srl_zoo.graphs.predicates`), as JSON values: the labels,
        the id of `-`, and the senses each word may take (None: unrestricted)."""
        return {
            "type": "tagger",
            "labels": [self.index_to_label[i] for i in range(len(self.index_to_label))],
            "not_a_predicate": self.not_a_predicate,
            "senses": None if self.senses is None else self.senses.to_json(),
            "frame_file_senses": self.senses is not None and self.senses.unseen_senses is not None,
        }

    def _save_to_state_dict(self, destination: dict[str, Any], prefix: str, keep_vars: bool) -> None:
        if self.senses is not None:
            self.sense_table = json_to_tensor(self.senses.to_json())
        super()._save_to_state_dict(destination, prefix, keep_vars)

    def _load_from_state_dict(self, state_dict: dict[str, Any], prefix: str, *args: Any, **kwargs: Any) -> None:
        saved = state_dict.get(prefix + "sense_table")
        if self.senses is not None and saved is not None:
            self.senses.load_json(tensor_to_json(saved) if saved.numel() else {})
            self.sense_table = saved.clone()  # the buffer takes the saved size
        super()._load_from_state_dict(state_dict, prefix, *args, **kwargs)
