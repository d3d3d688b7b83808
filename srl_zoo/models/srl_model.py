"""The shared SRL Model: one Instance per sentence, expanded to one row per (sentence, predicate)."""
from typing import Any, Dict, List, Optional, Tuple

import torch
from allennlp.data import TextFieldTensors, Vocabulary
from allennlp.models.model import Model
from allennlp.modules import Seq2SeqEncoder, TextFieldEmbedder
from allennlp.nn import InitializerApplicator, RegularizerApplicator
from allennlp.nn.util import get_text_field_mask, sequence_cross_entropy_with_logits
from torch import nn

from srl_zoo.data.dataset_readers.srl_reader import NOT_A_PREDICATE
from srl_zoo.data.formats import SrlFrame, SrlSpan, bio_to_spans
from srl_zoo.decoding import TagDecoder
from srl_zoo.metrics import PredicateF1, SrlSpanF1, frames_by_position

PREDICATE_COMBINATIONS = ("concat", "add")
PREDICATE_SOURCES = ("gold", "predicted")


@Model.register("srl")
class SrlModel(Model):
    """Embeds words, conditions on each predicate, encodes, tags BIO and decodes.

    Predicate conditioning `"indicator"`: the batch `(batch, ...)` is expanded inside the model to
    one row per (sentence, predicate) with tensor indexing, a predicate-mask embedding is
    concatenated to (or added to) the word embedding as in DeepAtt, and the encoder runs per row.

    Optional predicate identification: the same encoder also reads each sentence once with no
    predicate marked, and a per-token classifier predicts `-` (no predicate), a sense suffix
    (`01`, `LV`) or `Y` (a predicate in data without senses). Its loss is added with
    `predicate_loss_weight`. Training always conditions on gold predicates.

    # Parameters

    vocab : the vocabulary (`labels` holds the BIO tags, `predicate_senses` the predicate labels).
    text_field_embedder : embeds `tokens` (e.g. `embedding` with an optional GloVe `pretrained_file`).
    encoder : any `Seq2SeqEncoder` (`deep_att`, `stacked_bidirectional_lstm`, ...). Its input
        width must be the embedding width plus `predicate_embedding_dim` (`concat`) or equal to it (`add`).
    predicate_embedding_dim : width of the predicate-mask embedding (DeepAtt: 100).
    predicate_combination : `"concat"` (DeepAtt) or `"add"`.
    label_smoothing : label smoothing of the tag loss (DeepAtt: 0.1).
    decoding : `"argmax"` (DeepAtt's choice) or `"viterbi"` (exact BIO constraints).
    embedding_dropout : dropout on the word embeddings before conditioning.
    predicate_identification : add the predicate identification head.
    predicate_loss_weight : weight of its loss.
    predicate_source : where predicates come from when not training: `"gold"` (the data's or
        the request's) or `"predicted"` (the head). Sentences given without any predicates (raw
        text) always use the head. With predicted predicates the SRL metric counts the
        arguments of missed predicates as missed and those of spurious predicates as excess.
    inference_chunk_elements : when not training, rows are encoded in chunks of at most this many
        `rows * seq_len^2` attention elements per head, so long sentences with many predicates fit.
    inference_chunk_tokens : and of at most this many row tokens (8192 suits a CPU; on a GPU, where
        each encoder call costs launch overhead, larger chunks such as 131072 are faster).
    per_layer_loss : for encoders with `forward_layers` (e.g. `selective_connection`): the tag
        scorer reads every layer, the loss is the mean of the layers' losses ("multi-channel cross
        entropy"), and at inference the layers' label distributions are averaged.
    training_metrics : also decode and update the SRL and predicate metrics on training batches.
        Off by default (as in allennlp-models' SRL models): decoding and the metrics' host-side
        bookkeeping cost time, and validation reports the metrics anyway.
    label_namespace : vocabulary namespace of the tags.
    """

    default_predictor = "srl"

    def __init__(
        self,
        vocab: Vocabulary,
        text_field_embedder: TextFieldEmbedder,
        encoder: Seq2SeqEncoder,
        predicate_embedding_dim: int = 100,
        predicate_combination: str = "concat",
        label_smoothing: float = 0.0,
        decoding: str = "argmax",
        embedding_dropout: float = 0.0,
        predicate_identification: bool = False,
        predicate_loss_weight: float = 1.0,
        predicate_source: str = "gold",
        inference_chunk_elements: int = 2_000_000,
        inference_chunk_tokens: int = 8192,
        per_layer_loss: bool = False,
        training_metrics: bool = False,
        label_namespace: str = "labels",
        initializer: InitializerApplicator = InitializerApplicator(),
        regularizer: Optional[RegularizerApplicator] = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(vocab, regularizer, **kwargs)
        if predicate_combination not in PREDICATE_COMBINATIONS:
            raise ValueError(f"predicate_combination must be one of {PREDICATE_COMBINATIONS}, got {predicate_combination!r}")
        if predicate_source not in PREDICATE_SOURCES:
            raise ValueError(f"predicate_source must be one of {PREDICATE_SOURCES}, got {predicate_source!r}")
        if predicate_source == "predicted" and not predicate_identification:
            raise ValueError("predicate_source 'predicted' needs predicate_identification: true")
        self.text_field_embedder = text_field_embedder
        self.encoder = encoder
        self.label_namespace = label_namespace
        self.predicate_combination = predicate_combination
        self.predicate_source = predicate_source
        self.inference_chunk_elements = inference_chunk_elements
        self.inference_chunk_tokens = inference_chunk_tokens
        if per_layer_loss and not hasattr(encoder, "forward_layers"):
            raise ValueError(f"per_layer_loss needs an encoder with forward_layers(); {type(encoder).__name__} has none")
        self.per_layer_loss = per_layer_loss
        self.training_metrics = training_metrics
        embedding_dim = text_field_embedder.get_output_dim()
        if predicate_combination == "add":
            predicate_embedding_dim = embedding_dim
        self.predicate_embedding = nn.Embedding(2, predicate_embedding_dim)
        # Same scale as allennlp's word embeddings (xavier): torch's default N(0, 1) would drown the
        # words, most of all in encoders that multiply their input by sqrt(d) (DeepAtt).
        nn.init.xavier_uniform_(self.predicate_embedding.weight)
        expected = embedding_dim + predicate_embedding_dim if predicate_combination == "concat" else embedding_dim
        if encoder.get_input_dim() != expected:
            raise ValueError(
                f"encoder input_dim is {encoder.get_input_dim()} but the model feeds it {expected} "
                f"(embedding {embedding_dim} {'+ predicate ' + str(predicate_embedding_dim) if predicate_combination == 'concat' else ''})"
            )
        self.embedding_dropout = nn.Dropout(embedding_dropout)
        self.tag_projection = nn.Linear(encoder.get_output_dim(), vocab.get_vocab_size(label_namespace))
        self.label_smoothing = label_smoothing or None
        self.decoder = TagDecoder(decoding, vocab.get_index_to_token_vocabulary(label_namespace))
        self.srl_metric = SrlSpanF1()
        self.predicate_head: Optional[nn.Linear] = None
        if predicate_identification:
            self.predicate_head = nn.Linear(encoder.get_output_dim(), vocab.get_vocab_size("predicate_senses"))
            self.predicate_loss_weight = predicate_loss_weight
            self.not_a_predicate = vocab.get_token_index(NOT_A_PREDICATE, "predicate_senses")
            self.predicate_metric = PredicateF1()
        initializer(self)

    def forward(  # type: ignore[override]
        self,
        tokens: TextFieldTensors,
        frames: Dict[str, torch.Tensor],
        metadata: Optional[List[Dict[str, Any]]] = None,
        predicate_labels: Optional[torch.Tensor] = None,
        **kwargs: Any,
    ) -> Dict[str, torch.Tensor]:
        """
        # Parameters

        tokens : the sentence, `(batch, seq_len)` ids per indexer.
        frames : `predicate_indices (batch, num_frames)` padded with -1 and, with gold data,
            `tags (batch, num_frames, seq_len)`.
        metadata : per sentence: words, whether predicates were given, the gold `SrlSentence`.
        predicate_labels : `(batch, seq_len)` gold predicate labels for the identification head.

        # Returns

        `mask`; when decoding (not training, or with `training_metrics`) `class_probabilities
        (batch, num_frames, seq_len, num_labels)` and `predicted_tags (batch, num_frames, seq_len)`
        (-1 outside real frames/tokens); `predicate_indices`
        `(batch, num_frames)` (the ones used: gold or predicted), with the identification head
        `predicate_label_ids (batch, seq_len)`, and `loss` when gold data is given.
        """
        mask = get_text_field_mask(tokens)
        embedded = self.embedding_dropout(self.text_field_embedder(tokens))
        predicate_indices = frames["predicate_indices"]
        output: Dict[str, Any] = {"mask": mask}
        losses: List[torch.Tensor] = []
        uses_predicted = torch.zeros(mask.size(0), dtype=torch.bool)
        if self.predicate_head is not None:
            label_ids, loss = self._identify_predicates(embedded, mask, predicate_labels, metadata)
            output["predicate_label_ids"] = label_ids
            if loss is not None:
                losses.append(loss)
            if not self.training:
                uses_predicted = self._sentences_using_predicted_predicates(metadata, mask.size(0))
                if uses_predicted.any():
                    predicate_indices = self._merge_predicted_predicates(predicate_indices, label_ids, uses_predicted)
        elif metadata is not None and not all(m.get("predicates_given", True) for m in metadata):
            raise ValueError("this model has no predicate identification head: give the predicates with each sentence")
        output["predicate_indices"] = predicate_indices

        rows = (predicate_indices >= 0).nonzero(as_tuple=False)  # (num_rows, 2): (sentence, frame)
        row_sentence, row_frame = rows[:, 0], rows[:, 1]
        row_mask = mask[row_sentence]
        positions = torch.arange(mask.size(1), device=mask.device).unsqueeze(0)
        indicator = (positions == predicate_indices[row_sentence, row_frame].unsqueeze(1)).long()
        layer_logits = [self.tag_projection(h) for h in self._encode_layers(embedded[row_sentence], indicator, row_mask)]
        if len(layer_logits) == 1:
            log_probs = torch.log_softmax(layer_logits[0].float(), dim=-1)
        else:  # the average of the layers' label distributions
            log_probs = torch.stack([torch.softmax(l.float(), dim=-1) for l in layer_logits]).mean(0).clamp_min(1e-12).log()
        decodes = not self.training or self.training_metrics
        if decodes:
            predicted = self.decoder(log_probs, row_mask)
            batch, num_frames = predicate_indices.shape
            probabilities = log_probs.new_zeros(batch, num_frames, mask.size(1), log_probs.size(-1))
            probabilities[row_sentence, row_frame] = log_probs.exp()
            predicted_tags = predicted.new_full((batch, num_frames, mask.size(1)), -1)
            predicted_tags[row_sentence, row_frame] = predicted.masked_fill(~row_mask, -1)
            output["class_probabilities"] = probabilities
            output["predicted_tags"] = predicted_tags

        gold_tags = frames.get("tags")
        if gold_tags is not None and not uses_predicted.any():
            if rows.size(0) > 0:
                gold = gold_tags[row_sentence, row_frame]
                losses.append(sum(
                    sequence_cross_entropy_with_logits(l.float(), gold, row_mask, average="token", label_smoothing=self.label_smoothing)
                    for l in layer_logits
                ) / len(layer_logits))
            else:  # a batch without predicates: a zero loss that still has a graph
                losses.append(embedded.sum() * 0.0)
        if losses:
            output["loss"] = sum(losses)
        if metadata is not None:
            output["words"] = [m["words"] for m in metadata]
            if decodes and any(m.get("sentence") is not None for m in metadata):
                self._update_srl_metric(predicted_tags, predicate_indices, mask, metadata)
        return output

    def _condition(self, words: torch.Tensor, indicator: torch.Tensor) -> torch.Tensor:
        predicate = self.predicate_embedding(indicator)
        if self.predicate_combination == "concat":
            return torch.cat([words, predicate], dim=-1)
        return words + predicate

    def _encode_layers(self, words: torch.Tensor, indicator: torch.Tensor, mask: torch.Tensor) -> List[torch.Tensor]:
        """Encode rows `(rows, seq_len, dim)`: the last layer, or every layer with `per_layer_loss`.

        When not training, rows are sorted by length and encoded in chunks cut to each chunk's own
        length (a batch of sentences of mixed lengths wastes no work on padding), with at most
        `inference_chunk_elements` attention elements per head in a chunk.
        """
        rows, length = indicator.shape
        if rows == 0:  # nothing to encode (no predicate anywhere in the batch)
            return [words.new_zeros(0, length, self.encoder.get_output_dim())]
        run = self.encoder.forward_layers if self.per_layer_loss else (lambda x, m: [self.encoder(x, m)])
        if self.training:
            return run(self._condition(words, indicator), mask)
        lengths = mask.sum(-1)
        order = torch.argsort(lengths, descending=True)
        sorted_lengths = lengths[order].tolist()
        outputs: Optional[List[torch.Tensor]] = None
        start = 0
        while start < rows:
            longest = max(sorted_lengths[start], 1)
            size = max(1, min(self.inference_chunk_elements // (longest * longest), self.inference_chunk_tokens // longest))
            chunk = order[start : start + size]
            layers = run(self._condition(words[chunk, :longest], indicator[chunk, :longest]), mask[chunk, :longest])
            if outputs is None:
                outputs = [layer.new_zeros(rows, length, layer.size(-1)) for layer in layers]
            for output, layer in zip(outputs, layers):
                output[chunk, :longest] = layer
            start += size
        return outputs  # type: ignore[return-value]

    def _identify_predicates(self, embedded: torch.Tensor, mask: torch.Tensor, gold: Optional[torch.Tensor],
                             metadata: Optional[List[Dict[str, Any]]]) -> Tuple[torch.Tensor, Optional[torch.Tensor]]:
        """Predicate labels `(batch, seq_len)` from one unconditioned pass, and their loss if gold is given."""
        encoded = self._encode_layers(embedded, torch.zeros_like(mask, dtype=torch.long), mask)[-1]
        logits = self.predicate_head(encoded)  # type: ignore[misc]
        label_ids = logits.argmax(-1).masked_fill(~mask, self.not_a_predicate)
        loss = None
        if gold is not None:
            loss = self.predicate_loss_weight * sequence_cross_entropy_with_logits(logits.float(), gold, mask, average="token")
        if gold is not None and (not self.training or self.training_metrics):
            self.predicate_metric(self._predicate_maps(gold, mask), self._predicate_maps(label_ids, mask))
        return label_ids, loss

    def _predicate_maps(self, label_ids: torch.Tensor, mask: torch.Tensor) -> List[Dict[int, str]]:
        maps = []
        for ids, length in zip(label_ids.tolist(), mask.sum(-1).tolist()):
            maps.append({
                i: self.vocab.get_token_from_index(label, "predicate_senses")
                for i, label in enumerate(ids[:length]) if label != self.not_a_predicate
            })
        return maps

    def _sentences_using_predicted_predicates(self, metadata: Optional[List[Dict[str, Any]]], batch: int) -> torch.Tensor:
        if self.predicate_source == "predicted":
            return torch.ones(batch, dtype=torch.bool)
        given = [m.get("predicates_given", True) for m in metadata] if metadata is not None else [True] * batch
        return ~torch.tensor(given, dtype=torch.bool)

    def _merge_predicted_predicates(self, gold_indices: torch.Tensor, label_ids: torch.Tensor, uses_predicted: torch.Tensor) -> torch.Tensor:
        """Predicate indices `(batch, num_frames)`: predicted ones for the flagged sentences, gold for the rest."""
        per_sentence = []
        is_predicate = (label_ids != self.not_a_predicate).cpu()
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

    def _update_srl_metric(self, predicted_tags: torch.Tensor, predicate_indices: torch.Tensor, mask: torch.Tensor,
                           metadata: List[Dict[str, Any]]) -> None:
        """Pair gold and predicted frames by predicate position; an unmatched side has no arguments."""
        gold_frames: List[List[SrlSpan]] = []
        predicted_frames: List[List[SrlSpan]] = []
        lengths = mask.sum(-1).tolist()
        tags = predicted_tags.cpu()
        for b, meta in enumerate(metadata):
            sentence = meta.get("sentence")
            if sentence is None:
                continue
            predicted = {
                index: bio_to_spans(self._tags_of(tags[b, f, : lengths[b]].tolist()))
                for f, index in enumerate(predicate_indices[b].tolist()) if index >= 0
            }
            gold, guessed = frames_by_position(sentence.arguments_by_predicate(), predicted)
            gold_frames.extend(gold)
            predicted_frames.extend(guessed)
        self.srl_metric(gold_frames, predicted_frames)

    def make_output_human_readable(self, output_dict: Dict[str, Any]) -> Dict[str, Any]:
        """Adds `frames` per sentence: predicate (index, word and, from the identification head on data
        with senses, `sense`: the frameset number such as `03` or `LV`), BIO `tags`, `arguments`,
        `description`."""
        if "predicted_tags" not in output_dict:  # a training-mode output: nothing was decoded
            return output_dict
        predicted_tags = output_dict["predicted_tags"].cpu()
        lengths = output_dict["mask"].sum(-1).tolist()
        label_ids = output_dict.get("predicate_label_ids")
        all_frames = []
        for b, words in enumerate(output_dict.get("words", [None] * len(lengths))):
            length = lengths[b]
            words = words or [f"#{i}" for i in range(length)]
            sentence_frames = []
            for f, index in enumerate(output_dict["predicate_indices"][b].tolist()):
                if index < 0:
                    continue
                tags = self._tags_of(predicted_tags[b, f, :length].tolist())
                spans = bio_to_spans(tags)
                predicate = {"index": index, "word": words[index]}
                if label_ids is not None:
                    label = self.vocab.get_token_from_index(int(label_ids[b, index]), "predicate_senses")
                    if label not in (NOT_A_PREDICATE, "Y", self.vocab._oov_token):
                        predicate["sense"] = label  # the frameset number, e.g. "03" for come.03
                sentence_frames.append(
                    {
                        "predicate": predicate,
                        "tags": tags,
                        "arguments": [
                            {"role": s.label, "start": s.start, "end": s.end, "text": " ".join(words[s.start : s.end + 1])}
                            for s in spans
                        ],
                        "description": describe(words, spans),
                    }
                )
            all_frames.append(sentence_frames)
        output_dict["frames"] = all_frames
        return output_dict

    def get_metrics(self, reset: bool = False) -> Dict[str, float]:
        if self.training and not self.training_metrics:
            return {}  # nothing was measured on training batches (see `training_metrics`)
        metrics = self.srl_metric.get_metric(reset)
        if self.predicate_head is not None:
            metrics.update(self.predicate_metric.get_metric(reset))
        return metrics


def frame_from_output(frame: Dict[str, Any], lemma: Optional[str] = None) -> SrlFrame:
    """The `SrlFrame` of one frame of `make_output_human_readable`'s output (lemma: the word if not given)."""
    return SrlFrame(
        index=frame["predicate"]["index"],
        lemma=lemma or frame["predicate"]["word"],
        arguments=[SrlSpan(a["role"], a["start"], a["end"]) for a in frame["arguments"]],
    )


def describe(words: List[str], spans: List[SrlSpan]) -> str:
    """A bracketed rendering, e.g. `[ARG0: The cat] [V: sat] on the mat`."""
    starts = {span.start: span for span in spans}
    pieces, i = [], 0
    while i < len(words):
        span = starts.get(i)
        if span is not None:
            pieces.append(f"[{span.label}: {' '.join(words[span.start : span.end + 1])}]")
            i = span.end + 1
        else:
            pieces.append(words[i])
            i += 1
    return " ".join(pieces)
