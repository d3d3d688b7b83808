"""The shared SRL Model: one Instance per sentence; its parts (frame scorer, feature source, heads) come
from the config, and it composes them without knowing which paper they come from."""

from typing import Any, Optional

import torch
from allennlp.common import Lazy
from allennlp.data import TextFieldTensors, Vocabulary
from allennlp.models.model import Model
from allennlp.modules import TextFieldEmbedder
from allennlp.nn import InitializerApplicator, RegularizerApplicator
from allennlp.nn.util import get_text_field_mask
from allennlp.training.metrics import Metric
from torch import nn

from srl_zoo.data.sentence_metadata import SentenceMetadata
from srl_zoo.metrics import SrlSpanF1
from srl_zoo.models.archive_record import ArchiveRecord
from srl_zoo.models.heads import AuxiliaryTask, PredicateHead
from srl_zoo.models.old_spellings import refuse_old_spellings
from srl_zoo.models.output_options import OptionalOutputs
from srl_zoo.models.renamed_parts import read_renamed_weights
from srl_zoo.modules.frame_features import FrameFeatures
from srl_zoo.modules.frame_scorers import FrameScorer
from srl_zoo.parts.batch_inputs import BatchInputs
from srl_zoo.parts.network import NetworkInputs, NetworkPass, SrlNetwork
from srl_zoo.parts.predicate_sources import check_predicate_source


@Model.register("srl_zoo")
class SrlModel(ArchiveRecord, OptionalOutputs, SrlNetwork, Model):
    """Embeds words, runs the network (`srl_zoo.parts.network`: encode sentences when a part reads them →
    predicate head → frame features → frame scorer → decoded frames), adds the auxiliary tasks' losses, and
    measures. See `docs/architecture.md`.

    # Parameters

    vocab : the vocabulary (`labels` holds the BIO tags, `predicate_senses` the predicate labels).
    text_field_embedder : embeds `tokens` (e.g. `embedding` with a GloVe `pretrained_file`).
    frame_scorer : a `FrameScorer` (`indicator`, `bilinear`, ...) with its output layer: scores, tag loss,
        decoding; built with the words' width (`input_dim`) and the feature source's (`frame_feature_dim`), for
        which it builds its encoder. The model-level shorthand of earlier versions (`encoder`, `decoding`,
        `predicate_identification`, ...) is read from their archives (rewritten into parts when an archive is
        read: `srl_zoo.archive_upgrade`) and refused in a config to train.
    embedding_dropout : dropout on the word embeddings.
    predicate_head : a `PredicateHead` (built with the scorer's sentence width).
    predicate_source : predicates when not training: `"gold"` (the data's or the request's) or
        `"predicted"` (the head's). Sentences given without predicates always use the head.
    auxiliary_tasks : name → `AuxiliaryTask`, each with its own loss weight and metrics.
    training_metrics : also decode and measure training batches (off by default: it costs time).
    srl_metric : a `Metric` with `score_sentences(gold, predicted)` (default `srl_span_f1`; `conll2009_f1`).
    frame_features : a `FrameFeatures` source (AMN's `associated_memory`) built with the embedder's width;
        the frame scorer is built to read its width.
    initializer : an `InitializerApplicator`: `regexes` of parameter names and the initialiser each gets (default:
        every part keeps its own initialisation).
    regularizer : a `RegularizerApplicator`: penalties on the parameters its regexes match, added to the loss.
    """

    default_predictor = "srl_zoo"
    frame_scorer: FrameScorer
    predicate_head: Optional[PredicateHead]
    frame_features: Optional[FrameFeatures]

    def __init__(
        self,
        vocab: Vocabulary,
        text_field_embedder: TextFieldEmbedder,
        frame_scorer: Lazy[FrameScorer],
        embedding_dropout: float = 0.0,
        predicate_head: Optional[Lazy[PredicateHead]] = None,
        predicate_source: str = "gold",
        auxiliary_tasks: Optional[dict[str, Lazy[AuxiliaryTask]]] = None,
        training_metrics: bool = False,
        srl_metric: Optional[Metric] = None,
        frame_features: Optional[Lazy[FrameFeatures]] = None,
        initializer: InitializerApplicator = InitializerApplicator(),
        regularizer: Optional[RegularizerApplicator] = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(vocab, regularizer, **kwargs)
        word_dim = text_field_embedder.get_output_dim()
        features = frame_features.construct(vocab=vocab, word_dim=word_dim) if frame_features else None
        self.frame_features = features  # first in the state dict, then the embedder, the scorer and the head
        feature_dim = features.get_output_dim() if features is not None else 0
        scorer = frame_scorer.construct(vocab=vocab, frame_feature_dim=feature_dim, input_dim=word_dim)
        scorer.check_frame_feature_dim(feature_dim)
        scorer.check_input_dim(word_dim)
        self.text_field_embedder = text_field_embedder
        sentence_dim = scorer.get_sentence_output_dim()
        head = predicate_head.construct(vocab=vocab, input_dim=sentence_dim) if predicate_head else None
        check_predicate_source(predicate_source, head is not None)
        self.build_network(scorer, head, vocab.get_index_to_token_vocabulary(scorer.label_namespace), features)
        self.predicate_source = predicate_source
        self.training_metrics = training_metrics
        self.embedding_dropout = nn.Dropout(embedding_dropout)
        self.srl_metric = srl_metric if srl_metric is not None else SrlSpanF1()
        tasks = (auxiliary_tasks or {}).items()
        self.auxiliary_tasks = nn.ModuleDict(
            {name: task.construct(vocab=vocab, input_dim=sentence_dim) for name, task in tasks}
        )
        initializer(self)
        if features is not None:
            features.prepare(text_field_embedder, head is not None and head.predicts_pos)
        read_renamed_weights(self)

    @classmethod
    def check_spelling(cls, config: dict[str, Any]) -> None:
        """Refuse in a config to train each spelling of earlier versions, in one line naming where it goes (the
        config check calls this: `srl_zoo.training.config_check`; archives are upgraded when read)."""
        refuse_old_spellings(config)

    def forward(  # type: ignore[override]
        self,
        tokens: TextFieldTensors,
        frames: dict[str, torch.Tensor],
        metadata: Optional[list[SentenceMetadata]] = None,
        **side_inputs: Any,
    ) -> dict[str, torch.Tensor]:
        """
        # Parameters

        tokens : the sentence, `(batch, seq_len)` ids per indexer.
        frames : `predicate_indices (batch, num_frames)` padded with -1 and, with gold data,
            `tags (batch, num_frames, seq_len)`; with a teacher's distributions (the reader's `teacher_files`)
            `teacher_probabilities (batch, num_frames, seq_len, num_labels)`.
        metadata : per sentence its `SentenceMetadata`: words, what was given with it, the gold `SrlSentence`.
        side_inputs : the other fields of the batch (`predicate_labels`, `pos_tags`, ...), each
            `(batch, seq_len)`, for the heads and auxiliary tasks.

        # Returns

        `mask`, `predicate_indices (batch, num_frames)` (gold or predicted); when decoding (not training,
        or `training_metrics`) `predicted_tags`, `class_probabilities` and, asked for, `span_log_probabilities`
        (see `ScoredFrames`); with a predicate head `predicate_label_ids` and `predicate_scores (batch,
        seq_len)`; `loss` with gold data.
        """
        mask = get_text_field_mask(tokens)
        embedded = self.embedding_dropout(self.text_field_embedder(tokens))
        decodes = not self.training or self.training_metrics
        inputs = BatchInputs.of_batch(self.training, metadata, side_inputs)
        network = self.run_network(
            NetworkInputs(
                embedded,
                mask,
                inputs,
                frames["predicate_indices"],
                frames.get("tags"),
                frames.get("teacher_probabilities"),
                tokens,
            ),
            NetworkPass(
                self.predicate_source,
                decodes,
                self.output_class_probabilities,
                with_span_scores=self.output_span_scores and not self.training,
                sentences_read_elsewhere=len(self.auxiliary_tasks) > 0,
            ),
        )
        task_losses = [
            task(network.sentences, mask, inputs, update_metrics=decodes) for task in self.auxiliary_tasks.values()
        ]
        output = network.outputs
        if losses := [loss for loss in [*task_losses, *network.losses] if loss is not None]:
            output["loss"] = sum(losses)
        if metadata is not None:
            output["words"] = inputs.words
            if decodes and any(sentence.sentence is not None for sentence in metadata):
                self.readout.score(self.srl_metric, output, metadata)
        return output

    def make_output_human_readable(self, output_dict: dict[str, Any]) -> dict[str, Any]:
        """Adds `frames` per sentence: predicate (index, word and, from a predicate head on data with
        senses, `sense`: the frameset number such as `03` or `LV`), BIO `tags`, `arguments`, `description`."""
        if "predicted_tags" in output_dict:  # not a training-mode output, where nothing was decoded
            output_dict["frames"] = self.readable_frames(output_dict)
        return output_dict

    def set_decoding(self, decoding: str) -> None:
        """Have the frame scorer decode with `decoding` from now on (e.g. to compare decodings on one model)."""
        self.frame_scorer.set_decoding(decoding)

    def set_predicate_source(self, source: str) -> None:
        """Take predicates from `"gold"` data or the `"predicted"` ones of the predicate head when not training."""
        check_predicate_source(source, self.predicate_head is not None)
        self.predicate_source = source

    def set_parse_source(self, source: str) -> None:
        """Make every part with a syntax head (LISA's encoder) attend to `source` parses (`"predicted"`
        or `"given"`); a `ValueError` when no part has one."""
        if not self.frame_scorer.set_parse_source(source):
            raise ValueError("this model has no syntax head (a lisa encoder with parse_layer set): no parse to inject")

    def get_metrics(self, reset: bool = False) -> dict[str, float]:
        if self.training and not self.training_metrics:
            return {}  # nothing was measured on training batches (see `training_metrics`)
        metrics = self.srl_metric.get_metric(reset)
        if self.predicate_head is not None:
            metrics.update(self.predicate_head.get_metrics(reset))
        for name, task in self.auxiliary_tasks.items():
            task_metrics = task.get_metrics(reset)  # type: ignore[operator]  # a ModuleDict's items are Modules
            metrics.update({f"{name}-{key}": value for key, value in task_metrics.items()})
        return metrics
