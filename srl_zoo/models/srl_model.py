"""The shared SRL Model: one Instance per sentence, expanded to one row per (sentence, predicate)."""
from typing import Any, Dict, List, Optional

import torch
from allennlp.data import TextFieldTensors, Vocabulary
from allennlp.models.model import Model
from allennlp.modules import Seq2SeqEncoder, TextFieldEmbedder
from allennlp.nn import InitializerApplicator, RegularizerApplicator
from allennlp.nn.util import get_text_field_mask, sequence_cross_entropy_with_logits
from torch import nn

from srl_zoo.data.formats import SrlSpan, bio_to_spans
from srl_zoo.decoding import TagDecoder
from srl_zoo.metrics import SrlSpanF1

PREDICATE_COMBINATIONS = ("concat", "add")


@Model.register("srl")
class SrlModel(Model):
    """Embeds words, conditions on each predicate, encodes, tags BIO and decodes.

    Predicate conditioning `"indicator"`: the batch `(batch, ...)` is expanded inside the model to
    one row per (sentence, predicate) with tensor indexing, a predicate-mask embedding is
    concatenated to (or added to) the word embedding as in DeepAtt, and the encoder runs per row.

    # Parameters

    vocab : the vocabulary (`labels` namespace holds the BIO tags).
    text_field_embedder : embeds `tokens` (e.g. `embedding` with an optional GloVe `pretrained_file`).
    encoder : any `Seq2SeqEncoder` (`deep_att`, `stacked_bidirectional_lstm`, ...). Its input
        width must be the embedding width plus `predicate_embedding_dim` (`concat`) or equal to it (`add`).
    predicate_embedding_dim : width of the predicate-mask embedding (DeepAtt: 100).
    predicate_combination : `"concat"` (DeepAtt) or `"add"`.
    label_smoothing : label smoothing of the tag loss (DeepAtt: 0.1).
    decoding : `"argmax"` (DeepAtt's choice) or `"viterbi"` (exact BIO constraints).
    embedding_dropout : dropout on the word embeddings before conditioning.
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
        label_namespace: str = "labels",
        initializer: InitializerApplicator = InitializerApplicator(),
        regularizer: Optional[RegularizerApplicator] = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(vocab, regularizer, **kwargs)
        if predicate_combination not in PREDICATE_COMBINATIONS:
            raise ValueError(f"predicate_combination must be one of {PREDICATE_COMBINATIONS}, got {predicate_combination!r}")
        self.text_field_embedder = text_field_embedder
        self.encoder = encoder
        self.label_namespace = label_namespace
        self.predicate_combination = predicate_combination
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
        num_labels = vocab.get_vocab_size(label_namespace)
        self.tag_projection = nn.Linear(encoder.get_output_dim(), num_labels)
        self.label_smoothing = label_smoothing or None
        self.decoder = TagDecoder(decoding, vocab.get_index_to_token_vocabulary(label_namespace))
        self.srl_metric = SrlSpanF1()
        initializer(self)

    def forward(  # type: ignore[override]
        self,
        tokens: TextFieldTensors,
        frames: Dict[str, torch.Tensor],
        metadata: Optional[List[Dict[str, Any]]] = None,
        **kwargs: Any,
    ) -> Dict[str, torch.Tensor]:
        """
        # Parameters

        tokens : the sentence, `(batch, seq_len)` ids per indexer.
        frames : `predicate_indices (batch, num_frames)` padded with -1 and, in training,
            `tags (batch, num_frames, seq_len)`.
        metadata : per sentence: words, predicate lemmas, the gold `SrlSentence`.

        # Returns

        `class_probabilities (batch, num_frames, seq_len, num_labels)`, `predicted_tags`
        `(batch, num_frames, seq_len)` (-1 outside real frames/tokens), `mask`, `predicate_indices`
        and, with gold tags, `loss`.
        """
        mask = get_text_field_mask(tokens)
        embedded = self.embedding_dropout(self.text_field_embedder(tokens))
        predicate_indices = frames["predicate_indices"]
        batch, num_frames = predicate_indices.shape
        rows = (predicate_indices >= 0).nonzero(as_tuple=False)  # (num_rows, 2): (sentence, frame)
        row_sentence, row_frame = rows[:, 0], rows[:, 1]
        row_mask = mask[row_sentence]
        indicator = (torch.arange(mask.size(1), device=mask.device).unsqueeze(0)
                     == predicate_indices[row_sentence, row_frame].unsqueeze(1)).long()
        row_inputs = self._condition(embedded[row_sentence], self.predicate_embedding(indicator))
        if rows.size(0) > 0:
            encoded = self.encoder(row_inputs, row_mask)
        else:  # no predicate in the whole batch: nothing to encode
            encoded = row_inputs.new_zeros(0, mask.size(1), self.encoder.get_output_dim())
        logits = self.tag_projection(encoded)  # (num_rows, seq_len, num_labels)
        log_probs = torch.log_softmax(logits.float(), dim=-1)
        predicted = self.decoder(log_probs, row_mask)

        num_labels = logits.size(-1)
        probabilities = log_probs.new_zeros(batch, num_frames, mask.size(1), num_labels)
        probabilities[row_sentence, row_frame] = log_probs.exp()
        predicted_tags = predicted.new_full((batch, num_frames, mask.size(1)), -1)
        predicted_tags[row_sentence, row_frame] = predicted.masked_fill(~row_mask, -1)
        output = {
            "class_probabilities": probabilities,
            "predicted_tags": predicted_tags,
            "mask": mask,
            "predicate_indices": predicate_indices,
        }
        if "tags" in frames:
            gold = frames["tags"][row_sentence, row_frame]
            if rows.size(0) > 0:
                output["loss"] = sequence_cross_entropy_with_logits(
                    logits, gold, row_mask, average="token", label_smoothing=self.label_smoothing
                )
            else:  # a batch without predicates: a zero loss that still has a graph
                output["loss"] = embedded.sum() * 0.0
            if metadata is not None:
                self._update_metric(predicted_tags, mask, metadata, frames["tags"])
        if metadata is not None:
            output["words"] = [m["words"] for m in metadata]
        return output

    def _condition(self, words: torch.Tensor, predicate: torch.Tensor) -> torch.Tensor:
        if self.predicate_combination == "concat":
            return torch.cat([words, predicate], dim=-1)
        return words + predicate

    def _tags_of(self, ids: List[int]) -> List[str]:
        return [self.vocab.get_token_from_index(i, self.label_namespace) for i in ids]

    def _update_metric(self, predicted_tags: torch.Tensor, mask: torch.Tensor, metadata: List[Dict[str, Any]],
                       gold_tags: torch.Tensor) -> None:
        gold_frames, predicted_frames = [], []
        lengths = mask.sum(-1).tolist()
        for b, meta in enumerate(metadata):
            sentence = meta.get("sentence")
            for f in range(len(meta["predicate_indices"])):
                length = lengths[b]
                predicted_frames.append(bio_to_spans(self._tags_of(predicted_tags[b, f, :length].tolist())))
                if sentence is not None:
                    gold_frames.append(sentence.frames[f].arguments)
                else:
                    gold_frames.append(bio_to_spans(self._tags_of(gold_tags[b, f, :length].tolist())))
        self.srl_metric(gold_frames, predicted_frames)

    def make_output_human_readable(self, output_dict: Dict[str, torch.Tensor]) -> Dict[str, torch.Tensor]:
        """Adds `frames` per sentence: predicate, BIO `tags`, labeled `arguments` and a `description`."""
        predicted_tags = output_dict["predicted_tags"].cpu()
        lengths = output_dict["mask"].sum(-1).tolist()
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
                sentence_frames.append(
                    {
                        "predicate": {"index": index, "word": words[index]},
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
        return self.srl_metric.get_metric(reset)


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
