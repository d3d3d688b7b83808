"""The shared SRL Model: one Instance per sentence; a frame scorer, heads and decoding chosen in the config."""

import contextlib
from typing import Any, Dict, Iterator, List, Optional, Tuple

import torch
from allennlp.common import Lazy
from allennlp.data import TextFieldTensors, Vocabulary
from allennlp.models.model import Model
from allennlp.modules import Seq2SeqEncoder, TextFieldEmbedder
from allennlp.nn import InitializerApplicator, RegularizerApplicator
from allennlp.nn.util import get_text_field_mask, sequence_cross_entropy_with_logits
from allennlp.training.metrics import Metric
from torch import nn

from srl_zoo.data.formats import SrlFrame, bio_to_spans
from srl_zoo.data.formats.labels import NO_SENSE, NOT_A_PREDICATE
from srl_zoo.decoding import TagDecoder
from srl_zoo.metrics import SrlSpanF1
from srl_zoo.models.frame_groups import DEFAULT_ROW_TOKENS, frame_groups
from srl_zoo.models.heads import AuxiliaryTask, PredicateHead, PredicateTaggerHead
from srl_zoo.modules.associated_memory import AssociatedMemory
from srl_zoo.modules.frame_scorers import EncodedSentences, FrameScorer, IndicatorFrameScorer
from srl_zoo.predictors.frames import frame_json

PREDICATE_SOURCES = ("gold", "predicted")
# the fields of a batch that heads and auxiliary tasks may read besides tokens and frames
SIDE_INPUTS = ("predicate_labels", "pos_tags", "dependency_heads", "dependency_labels", "pos_predicate_labels")


@Model.register("srl_zoo")
class SrlModel(Model):
    """Embeds words, finds where the predicates are, scores every frame's BIO tags with a frame
    scorer, decodes, and measures.

    What differs between architectures is a registrable part chosen in the config:

    - `frame_scorer`: how tags are conditioned on a predicate. `"indicator"` (DeepAtt, selective
      connection, BiLSTM baselines) encodes one row per (sentence, predicate) with a predicate-mask
      embedding; `"bilinear"` (LISA) encodes each sentence once and scores every (predicate, token)
      pair. Instead of a `frame_scorer`, a plain `encoder` (with `predicate_embedding_dim`,
      `predicate_combination`, `per_layer_loss`, `inference_chunk_*`) is shorthand for an
      `indicator` scorer with those settings.
    - `predicate_head`: predicts predicates (and senses) for raw text and `predicate_source:
      "predicted"`; `predicate_identification: true` is shorthand for the `tagger` head.
    - `auxiliary_tasks`: extra supervised losses on the sentence encodings (LISA's parse).
    - `memory`: AMN's associated memory, label-aware features per (sentence, predicate) and token
      from similar training sentences, handed to any frame scorer.

    Training always conditions on gold predicates.

    # Parameters

    vocab : the vocabulary (`labels` holds the BIO tags, `predicate_senses` the predicate labels).
    text_field_embedder : embeds `tokens` (e.g. `embedding` with a GloVe `pretrained_file`).
    frame_scorer : a `FrameScorer`; or give `encoder` for an `indicator` scorer.
    encoder, predicate_embedding_dim, predicate_combination, per_layer_loss, inference_chunk_elements,
        inference_chunk_tokens : the `indicator` scorer's settings (see `IndicatorFrameScorer`) when
        no `frame_scorer` is given.
    label_smoothing : label smoothing of the tag loss (DeepAtt, LISA: 0.1).
    decoding : `"argmax"` (DeepAtt's choice), `"viterbi"` (exact BIO constraints) or `"dependency"`
        (dependency SRL, CoNLL-2009: a role on argument head words, `O` elsewhere, no spans).
    embedding_dropout : dropout on the word embeddings.
    predicate_head : a `PredicateHead` (built with the scorer's sentence width).
    predicate_identification, predicate_loss_weight : shorthand for a `tagger` head with that weight.
    predicate_source : where predicates come from when not training: `"gold"` (the data's or the
        request's) or `"predicted"` (the head). Sentences given without any predicates (raw text)
        always use the head. With predicted predicates the SRL metric counts the arguments of
        missed predicates as missed and those of spurious predicates as excess.
    auxiliary_tasks : name → `AuxiliaryTask`, each with its own loss weight and metrics.
    training_metrics : also decode and update the SRL and head metrics on training batches. Off by
        default (as in allennlp-models' SRL models): decoding and the metrics' host-side bookkeeping
        cost time, and validation reports the metrics anyway.
    label_namespace : vocabulary namespace of the tags.
    memory : an `AssociatedMemory` (built with the embedder's width); the frame scorer must be built
        for its output width (`frame_feature_dim`; automatic with the `encoder` shorthand, whose
        `input_dim` then includes it). Needs the single-id `tokens` embedder (the memory embeds the
        remembered sentences' words with it).
    srl_metric : the SRL metric, any `Metric` with `score_sentences(gold, predicted)` taking per sentence
        `{predicate index: SrlFrame}` maps: `srl_span_f1` (default; srl-eval.pl's semantics) or
        `conll2009_f1` (eval09.pl's, predicate senses included; predicted senses come from the
        predicate head).
    """

    default_predictor = "srl_zoo"
    #: frames are scored and decoded in groups of at most this many padded (sentence, frame, token)
    #: cells when not training (see `frame_groups`): the memory ceiling of long sentences
    inference_row_tokens: int = DEFAULT_ROW_TOKENS
    #: whether the output holds `class_probabilities` (`without_class_probabilities` turns it off)
    output_class_probabilities: bool = True

    def __init__(
        self,
        vocab: Vocabulary,
        text_field_embedder: TextFieldEmbedder,
        frame_scorer: Optional[FrameScorer] = None,
        encoder: Optional[Seq2SeqEncoder] = None,
        predicate_embedding_dim: int = 100,
        predicate_combination: str = "concat",
        label_smoothing: float = 0.0,
        decoding: str = "argmax",
        embedding_dropout: float = 0.0,
        predicate_head: Optional[Lazy[PredicateHead]] = None,
        predicate_identification: bool = False,
        predicate_loss_weight: float = 1.0,
        predicate_source: str = "gold",
        inference_chunk_elements: int = 2_000_000,
        inference_chunk_tokens: int = 8192,
        per_layer_loss: bool = False,
        auxiliary_tasks: Optional[Dict[str, Lazy[AuxiliaryTask]]] = None,
        training_metrics: bool = False,
        label_namespace: str = "labels",
        srl_metric: Optional[Metric] = None,
        memory: Optional[Lazy[AssociatedMemory]] = None,
        initializer: InitializerApplicator = InitializerApplicator(),
        regularizer: Optional[RegularizerApplicator] = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(vocab, regularizer, **kwargs)
        if predicate_source not in PREDICATE_SOURCES:
            raise ValueError(f"predicate_source must be one of {PREDICATE_SOURCES}, got {predicate_source!r}")
        if (frame_scorer is None) == (encoder is None):
            raise ValueError(
                "give the model either a frame_scorer or an encoder (shorthand for an indicator frame scorer)"
            )
        self.memory: Optional[AssociatedMemory] = None
        if memory is not None:
            self.memory = memory.construct(vocab=vocab, word_dim=text_field_embedder.get_output_dim())
            _check_single_id_embedder(text_field_embedder)
        memory_dim = self.memory.get_output_dim() if self.memory is not None else 0
        if frame_scorer is None:
            frame_scorer = IndicatorFrameScorer(
                vocab,
                encoder,
                predicate_embedding_dim,
                predicate_combination,
                per_layer_loss,  # type: ignore[arg-type]
                inference_chunk_elements,
                inference_chunk_tokens,
                label_namespace,
                frame_feature_dim=memory_dim,
            )
        frame_scorer.check_frame_feature_dim(memory_dim)
        frame_scorer.check_input_dim(text_field_embedder.get_output_dim())
        self.text_field_embedder = text_field_embedder
        self.frame_scorer = frame_scorer
        self.label_namespace = label_namespace
        self.predicate_source = predicate_source
        self.training_metrics = training_metrics
        self.embedding_dropout = nn.Dropout(embedding_dropout)
        self.label_smoothing = label_smoothing or None
        self.decoder = TagDecoder(decoding, vocab.get_index_to_token_vocabulary(label_namespace))
        self.srl_metric = srl_metric if srl_metric is not None else SrlSpanF1()
        if predicate_head is None and predicate_identification:
            predicate_head = Lazy(PredicateTaggerHead, constructor_extras={"loss_weight": predicate_loss_weight})
        sentence_dim = frame_scorer.get_sentence_output_dim()
        self.predicate_head: Optional[PredicateHead] = (
            None if predicate_head is None else predicate_head.construct(vocab=vocab, input_dim=sentence_dim)
        )
        if predicate_source == "predicted" and self.predicate_head is None:
            raise ValueError("predicate_source 'predicted' needs a predicate head (predicate_identification: true)")
        if self.memory is not None and self.memory.pos_source == "tagger" and not self._tags_pos():
            raise ValueError("the memory's pos_source 'tagger' needs a POS-tagging head (joint_pos_predicate)")
        self.auxiliary_tasks = nn.ModuleDict(
            {
                name: task.construct(vocab=vocab, input_dim=sentence_dim)
                for name, task in (auxiliary_tasks or {}).items()
            }
        )
        initializer(self)

    def forward(  # type: ignore[override]
        self,
        tokens: TextFieldTensors,
        frames: Dict[str, torch.Tensor],
        metadata: Optional[List[Dict[str, Any]]] = None,
        **side_inputs: Any,
    ) -> Dict[str, torch.Tensor]:
        """
        # Parameters

        tokens : the sentence, `(batch, seq_len)` ids per indexer.
        frames : `predicate_indices (batch, num_frames)` padded with -1 and, with gold data,
            `tags (batch, num_frames, seq_len)`.
        metadata : per sentence: words, whether predicates were given, the gold `SrlSentence`.
        side_inputs : the other fields of the batch (`predicate_labels`, `pos_tags`,
            `dependency_heads`, ...), each `(batch, seq_len)`, for the heads and auxiliary tasks.

        # Returns

        `mask`, `predicate_indices (batch, num_frames)` (the ones used: gold or predicted); when
        decoding (not training, or with `training_metrics`) `class_probabilities (batch, num_frames,
        seq_len, num_labels)` and `predicted_tags (batch, num_frames, seq_len)` (-1 outside real
        frames/tokens); with a predicate head `predicate_label_ids (batch, seq_len)`; `loss` when
        gold data is given.
        """
        mask = get_text_field_mask(tokens)
        embedded = self.embedding_dropout(self.text_field_embedder(tokens))
        decodes = not self.training or self.training_metrics
        inputs = {name: side_inputs[name] for name in SIDE_INPUTS if side_inputs.get(name) is not None}
        output: Dict[str, Any] = {"mask": mask}
        losses: List[torch.Tensor] = []

        sentences: Optional[EncodedSentences] = None
        if self.frame_scorer.scores_from_sentences or self.predicate_head is not None or len(self.auxiliary_tasks):
            sentences = self.frame_scorer.encode_sentences(embedded, mask, self._encoder_context(inputs, metadata))
        for task in self.auxiliary_tasks.values():
            loss = task(sentences, mask, inputs, update_metrics=decodes)
            if loss is not None:
                losses.append(loss)

        predicate_indices = frames["predicate_indices"]
        uses_predicted = torch.zeros(mask.size(0), dtype=torch.bool)
        predicted_pos = None
        if self.predicate_head is not None:
            found = self.predicate_head(sentences, mask, inputs, update_metrics=decodes)  # type: ignore[arg-type]
            output["predicate_label_ids"] = found.label_ids
            predicted_pos = found.pos_ids
            if found.loss is not None:
                losses.append(found.loss)
            if not self.training:
                uses_predicted = self._sentences_using_predicted_predicates(metadata, mask.size(0))
                if uses_predicted.any():
                    predicate_indices = self._merge_predicted_predicates(
                        predicate_indices, found.label_ids, uses_predicted
                    )
        elif metadata is not None and not all(m.get("predicates_given", True) for m in metadata):
            raise ValueError("this model has no predicate identification head: give the predicates with each sentence")
        output["predicate_indices"] = predicate_indices

        frame_features = None
        if self.memory is not None:
            if metadata is None:
                raise ValueError("the associated memory needs the batch's metadata (words, POS)")
            frame_features = self.memory(
                embedded, mask, predicate_indices, self._embed_token_ids, metadata, predicted_pos
            )  # (batch, num_frames, seq_len, memory_dim)
        gold_tags = frames.get("tags") if not uses_predicted.any() else None
        tag_loss = self._score_frames(
            embedded, mask, predicate_indices, sentences, frame_features, gold_tags, decodes, output
        )
        if tag_loss is not None:
            losses.append(tag_loss)
        if losses:
            output["loss"] = sum(losses)
        if metadata is not None:
            output["words"] = [m["words"] for m in metadata]
            if decodes and any(m.get("sentence") is not None for m in metadata):
                self._update_srl_metric(output, predicate_indices, mask, metadata)
        return output

    def _embed_token_ids(self, ids: torch.Tensor) -> torch.Tensor:
        """Word embeddings `(..., len, dim)` of `tokens` ids `(..., len)` (for the memory's remembered sentences)."""
        return self.text_field_embedder({"tokens": {"tokens": ids}})

    def _tags_pos(self) -> bool:
        return bool(getattr(self.predicate_head, "predicts_pos", False))

    def _encoder_context(
        self, inputs: Dict[str, torch.Tensor], metadata: Optional[List[Dict[str, Any]]]
    ) -> Dict[str, Any]:
        """Side inputs for encoders that use them (LISA's syntax head): the batch's fields and metadata."""
        return {"training": self.training, "metadata": metadata, **inputs}

    def _tag_loss(
        self, layer_logits: List[torch.Tensor], gold_tags: torch.Tensor, frame_mask: torch.Tensor, mask: torch.Tensor
    ) -> torch.Tensor:
        """Token-averaged cross entropy over real frames' real tokens, averaged over the layers."""
        batch, num_frames, length = gold_tags.shape
        token_mask = (frame_mask.unsqueeze(-1) & mask.unsqueeze(1)).view(batch * num_frames, length)
        gold = gold_tags.reshape(batch * num_frames, length).contiguous()  # a group of frames is a strided slice
        total = sum(
            # contiguous: float() keeps a permuted bf16 tensor's strides, which allennlp's view() rejects
            sequence_cross_entropy_with_logits(
                logits.float().contiguous().view(batch * num_frames, length, -1),
                gold,
                token_mask,
                average="token",
                label_smoothing=self.label_smoothing,
            )
            for logits in layer_logits
        )
        return total / len(layer_logits)

    def _score_frames(
        self,
        embedded: torch.Tensor,
        mask: torch.Tensor,
        predicate_indices: torch.Tensor,
        sentences: Optional[EncodedSentences],
        frame_features: Optional[torch.Tensor],
        gold_tags: Optional[torch.Tensor],
        decodes: bool,
        output: Dict[str, Any],
    ) -> Optional[torch.Tensor]:
        """Scores the frames, decodes them when `decodes` (adding `predicted_tags` and
        `class_probabilities` to `output`) and returns their tag loss (None without gold
        tags). When not training, frames go through in groups of at most `inference_row_tokens` padded
        cells, so memory does not grow with sentence length times predicate count."""
        batch, num_frames = predicate_indices.shape
        if self.training:
            groups = [slice(0, num_frames)]
        else:
            groups = frame_groups(batch, num_frames, mask.size(1), self.inference_row_tokens)
        losses, weights, decoded = [], [], []
        for group in groups:
            indices = predicate_indices[:, group]
            features = frame_features[:, group] if frame_features is not None else None
            layer_logits = self.frame_scorer(embedded, mask, indices, sentences, features)
            frame_mask = indices >= 0  # (batch, group frames)
            if gold_tags is not None and frame_mask.size(1):
                losses.append(self._tag_loss(layer_logits, gold_tags[:, group], frame_mask, mask))
                weights.append((frame_mask.unsqueeze(-1) & mask.unsqueeze(1)).sum())
            if decodes:
                decoded.append(self._decode(layer_logits, frame_mask, mask))
        if decoded:
            output["predicted_tags"] = torch.cat([tags for tags, _ in decoded], dim=1)
            if self.output_class_probabilities:
                output["class_probabilities"] = torch.cat([probabilities for _, probabilities in decoded], dim=1)
        if gold_tags is None:
            return None
        if len(losses) <= 1:  # one group, or no frame at all
            return losses[0] if losses else embedded.sum() * 0.0
        # the token average over all groups, as one call over all frames would give it
        return sum(loss * weight for loss, weight in zip(losses, weights)) / sum(weights).clamp_min(1)

    @contextlib.contextmanager
    def without_class_probabilities(self) -> Iterator[None]:
        """Leave `class_probabilities` (batch x frames x length x labels floats) out of the output
        meanwhile: the predictor reads only the decoded tags."""
        kept = self.output_class_probabilities
        self.output_class_probabilities = False
        try:
            yield
        finally:
            self.output_class_probabilities = kept

    def _decode(
        self, layer_logits: List[torch.Tensor], frame_mask: torch.Tensor, mask: torch.Tensor
    ) -> Tuple[torch.Tensor, Optional[torch.Tensor]]:
        """`predicted_tags (batch, num_frames, seq_len)` and, with `output_class_probabilities`, the
        layers' mean distribution `class_probabilities (batch, num_frames, seq_len, num_labels)`."""
        if len(layer_logits) == 1:
            log_probs = torch.log_softmax(layer_logits[0].float(), dim=-1)
        else:  # the average of the layers' label distributions
            log_probs = (
                torch.stack([torch.softmax(logits.float(), dim=-1) for logits in layer_logits])
                .mean(0)
                .clamp_min(1e-12)
                .log()
            )
        rows = frame_mask.nonzero(as_tuple=False)  # (num_rows, 2): (sentence, frame)
        row_sentence, row_frame = rows[:, 0], rows[:, 1]
        row_mask = mask[row_sentence]
        predicted = self.decoder(log_probs[row_sentence, row_frame], row_mask)
        predicted_tags = predicted.new_full(frame_mask.shape + (mask.size(1),), -1)
        predicted_tags[row_sentence, row_frame] = predicted.masked_fill(~row_mask, -1)
        if not self.output_class_probabilities:
            return predicted_tags, None
        return predicted_tags, log_probs.exp() * frame_mask[..., None, None]

    def _sentences_using_predicted_predicates(
        self, metadata: Optional[List[Dict[str, Any]]], batch: int
    ) -> torch.Tensor:
        if self.predicate_source == "predicted":
            return torch.ones(batch, dtype=torch.bool)
        given = [m.get("predicates_given", True) for m in metadata] if metadata is not None else [True] * batch
        return ~torch.tensor(given, dtype=torch.bool)

    def _merge_predicted_predicates(
        self, gold_indices: torch.Tensor, label_ids: torch.Tensor, uses_predicted: torch.Tensor
    ) -> torch.Tensor:
        """Predicate indices `(batch, num_frames)`: predicted ones for the flagged sentences, gold for the rest."""
        per_sentence = []
        is_predicate = (label_ids != self.predicate_head.not_a_predicate).cpu()  # type: ignore[union-attr]
        for b in range(gold_indices.size(0)):
            if uses_predicted[b]:
                per_sentence.append(is_predicate[b].nonzero(as_tuple=False).squeeze(1).tolist())
            else:
                per_sentence.append([i for i in gold_indices[b].tolist() if i >= 0])
        width = max((len(p) for p in per_sentence), default=0)
        merged = torch.full((gold_indices.size(0), width), -1, dtype=torch.long)
        for b, indices in enumerate(per_sentence):
            merged[b, : len(indices)] = torch.tensor(indices, dtype=torch.long)
        return merged.to(gold_indices.device)

    def _tags_of(self, ids: List[int]) -> List[str]:
        return [self.vocab.get_token_from_index(i, self.label_namespace) for i in ids]

    def _update_srl_metric(
        self,
        output: Dict[str, Any],
        predicate_indices: torch.Tensor,
        mask: torch.Tensor,
        metadata: List[Dict[str, Any]],
    ) -> None:
        """Score the predicted frames (arguments, and senses from a predicate head) against the gold
        `SrlSentence`s, by predicate position."""
        gold: List[Dict[int, SrlFrame]] = []
        predicted: List[Dict[int, SrlFrame]] = []
        lengths = mask.sum(-1).tolist()
        tags = output["predicted_tags"].cpu()
        label_ids = output.get("predicate_label_ids")
        label_ids = label_ids.cpu() if label_ids is not None else None
        for b, meta in enumerate(metadata):
            sentence = meta.get("sentence")
            if sentence is None:
                continue
            frames = {}
            for f, index in enumerate(predicate_indices[b].tolist()):
                if index < 0:
                    continue
                sense = self._predicted_sense(label_ids, b, index)
                arguments = bio_to_spans(self._tags_of(tags[b, f, : lengths[b]].tolist()))
                frames[index] = SrlFrame(index=index, lemma=meta["words"][index], sense=sense, arguments=arguments)
            gold.append({frame.index: frame for frame in sentence.frames})
            predicted.append(frames)
        self.srl_metric.score_sentences(gold, predicted)  # type: ignore[attr-defined]

    def _predicted_sense(self, label_ids: Optional[torch.Tensor], sentence: int, index: int) -> Optional[str]:
        """The predicate head's sense (frameset number, e.g. `03`) for the token, `None` where it has
        none (no head, not a predicate, data without senses).

        # Parameters

        label_ids : the head's `predicate_label_ids (batch, seq_len)`, or `None` without a head.
        """
        if label_ids is None:
            return None
        label = self.predicate_head.label_of(int(label_ids[sentence, index]))  # type: ignore[union-attr]
        return None if label in (NOT_A_PREDICATE, NO_SENSE, self.vocab._oov_token) else label

    def make_output_human_readable(self, output_dict: Dict[str, Any]) -> Dict[str, Any]:
        """Adds `frames` per sentence: predicate (index, word and, from a predicate head on data with
        senses, `sense`: the frameset number such as `03` or `LV`), BIO `tags`, `arguments`, `description`."""
        if "predicted_tags" not in output_dict:  # a training-mode output: nothing was decoded
            return output_dict
        predicted_tags = output_dict["predicted_tags"].cpu()
        lengths = output_dict["mask"].sum(-1).tolist()
        label_ids = output_dict.get("predicate_label_ids")
        label_ids = label_ids.cpu() if label_ids is not None else None
        all_frames = []
        for b, words in enumerate(output_dict.get("words", [None] * len(lengths))):
            length = lengths[b]
            words = words or [f"#{i}" for i in range(length)]
            sentence_frames = []
            for f, index in enumerate(output_dict["predicate_indices"][b].tolist()):
                if index < 0:
                    continue
                sense = self._predicted_sense(label_ids, b, index)
                sentence_frames.append(
                    frame_json(
                        words,
                        index,
                        self._tags_of(predicted_tags[b, f, :length].tolist()),
                        sense,
                        dependency=self.decoder.decoding == "dependency",
                    )
                )
            all_frames.append(sentence_frames)
        output_dict["frames"] = all_frames
        return output_dict

    def set_decoding(self, decoding: str) -> None:
        """Decode with `"argmax"`, `"viterbi"` or `"dependency"` from now on (e.g. to compare them on one model)."""
        self.decoder = TagDecoder(decoding, self.vocab.get_index_to_token_vocabulary(self.label_namespace))

    def set_predicate_source(self, source: str) -> None:
        """Take predicates from `"gold"` data or the `"predicted"` ones of the predicate head when not training."""
        if source not in PREDICATE_SOURCES:
            raise ValueError(f"predicate_source must be one of {PREDICATE_SOURCES}, got {source!r}")
        if source == "predicted" and self.predicate_head is None:
            raise ValueError(
                "predicate_source 'predicted' needs a model with a predicate head (predicate_identification: "
                "true, or a predicate_head)"
            )
        self.predicate_source = source

    def set_parse_source(self, source: str) -> None:
        """Make every part with a syntax head (LISA's encoder) attend to `source` parses (`"predicted"`
        or `"given"`); a `ValueError` when no part has one."""
        honoured = [
            module.set_parse_source(source)
            for module in self.modules()
            if module is not self and hasattr(module, "set_parse_source")
        ]
        if not any(honoured):
            raise ValueError("this model has no syntax head (a lisa encoder with parse_layer set): no parse to inject")

    def get_metrics(self, reset: bool = False) -> Dict[str, float]:
        if self.training and not self.training_metrics:
            return {}  # nothing was measured on training batches (see `training_metrics`)
        metrics = self.srl_metric.get_metric(reset)
        if self.predicate_head is not None:
            metrics.update(self.predicate_head.get_metrics(reset))
        for name, task in self.auxiliary_tasks.items():
            metrics.update({f"{name}-{key}": value for key, value in task.get_metrics(reset).items()})
        return metrics


def _check_single_id_embedder(embedder: TextFieldEmbedder) -> None:
    """The memory embeds remembered words by their `tokens` ids: the embedder must be just that."""
    token_embedders = getattr(embedder, "_token_embedders", {})
    if set(token_embedders) != {"tokens"} or not hasattr(token_embedders["tokens"], "weight"):
        raise ValueError(
            "the associated memory needs a text_field_embedder with exactly one single-id 'tokens' embedding "
            f"(found: {sorted(token_embedders)})"
        )
