"""The `indicator` frame scorer: one encoder row per (sentence, predicate), a predicate-mask embedding (DeepAtt)."""

from collections.abc import Callable
from typing import Any, Optional

import torch
from torch import nn

from srl_zoo.config_fit import setting
from srl_zoo.parts.batch_inputs import BatchInputs
from srl_zoo.parts.encoders.encoded_sentences import EncodedSentences
from srl_zoo.parts.encoders.sentence_encoder import SentenceEncoder
from srl_zoo.parts.outputs.tag_output import TagOutput
from srl_zoo.parts.scorers.frame_scorer import FrameScorer

PREDICATE_COMBINATIONS = ("concat", "add")


class IndicatorFrameScorer(FrameScorer):
    """Expands the batch to one row per (sentence, predicate) with tensor indexing, concatenates (or
    adds) a predicate-mask embedding to the words as in DeepAtt, encodes each row and projects every
    token to BIO tag logits.

    When not training, rows are sorted by length and encoded in chunks cut to each chunk's own length
    (a batch of sentences of mixed lengths wastes no work on padding), with at most
    `inference_chunk_elements` attention elements per head and `inference_chunk_tokens` row tokens
    per encoder call.

    # Parameters

    encoder : a `SentenceEncoder` (any allennlp `Seq2SeqEncoder` in a config); its input width is the word
        width plus `predicate_embedding_dim` (`concat`) or the word width (`add`).
    predicate_embedding_dim : width of the predicate-mask embedding (DeepAtt: 100); ignored with `add`.
    predicate_combination : `"concat"` (DeepAtt) or `"add"`.
    per_layer_loss : return logits of every layer of an encoder that exposes them (`forward_layers`), for
        a loss at every layer and averaged distributions at inference (selective connection).
    inference_chunk_elements, inference_chunk_tokens : chunk limits at inference (8192 tokens suits a
        CPU; on a GPU larger chunks such as 131072 are faster).
    label_namespace : vocabulary namespace of the tags.
    tag_output : the output layer (`TagOutput`), built over the `num_labels` tags (in a config: `output`).
    num_labels : how many BIO tags (the label namespace's size).
    frame_feature_dim : width of per-frame token features (AMN's memory) concatenated after the
        predicate embedding; the encoder's input width includes it.
    """

    def __init__(
        self,
        encoder: SentenceEncoder,
        tag_output: TagOutput,
        num_labels: int,
        predicate_embedding_dim: int = 100,
        predicate_combination: str = "concat",
        per_layer_loss: bool = False,
        inference_chunk_elements: int = 2_000_000,
        inference_chunk_tokens: int = 8192,
        label_namespace: str = "labels",
        frame_feature_dim: int = 0,
    ) -> None:
        super().__init__()
        self.label_namespace = label_namespace
        self.tag_output = tag_output
        if predicate_combination not in PREDICATE_COMBINATIONS:
            raise ValueError(
                f"predicate_combination must be one of {PREDICATE_COMBINATIONS}, got {predicate_combination!r}"
            )
        self.encoder = encoder
        if per_layer_loss and not self.encoder.exposes_layers:
            raise ValueError(
                f"per_layer_loss needs an encoder with forward_layers(); {type(encoder).__name__} has none"
            )
        self.predicate_combination = predicate_combination
        self.per_layer_loss = per_layer_loss
        self.inference_chunk_elements = inference_chunk_elements
        self.inference_chunk_tokens = inference_chunk_tokens
        self.frame_feature_dim = frame_feature_dim
        if predicate_combination == "add":
            predicate_embedding_dim = encoder.get_input_dim() - frame_feature_dim
        self.predicate_embedding_dim = predicate_embedding_dim
        self.predicate_embedding = nn.Embedding(2, predicate_embedding_dim)
        # Same scale as allennlp's word embeddings (xavier): torch's default N(0, 1) would drown the
        # words, most of all in encoders that multiply their input by sqrt(d) (DeepAtt).
        nn.init.xavier_uniform_(self.predicate_embedding.weight)
        self.tag_projection = nn.Linear(encoder.get_output_dim(), num_labels)

    @classmethod
    def encoder_input_widths(cls, word_dim: int, settings: dict[str, Any]) -> dict[str, int]:
        """The words, the predicate embedding (`concat`; `add` adds it to the words) and the frame features."""
        widths = {"words": word_dim}
        if setting(cls, settings, "predicate_combination") == "concat":
            widths["predicate embedding"] = setting(cls, settings, "predicate_embedding_dim")
        if setting(cls, settings, "frame_feature_dim"):
            widths["frame features"] = setting(cls, settings, "frame_feature_dim")
        return widths

    def get_input_dim(self) -> int:
        words_and_predicate = self.encoder.get_input_dim() - self.frame_feature_dim
        if self.predicate_combination == "add":
            return words_and_predicate
        return words_and_predicate - self.predicate_embedding_dim

    def check_input_dim(self, embedding_dim: int) -> None:
        if embedding_dim != self.get_input_dim():
            concat = self.predicate_combination == "concat"
            fed = embedding_dim + (self.predicate_embedding_dim if concat else 0) + self.frame_feature_dim
            parts = [f"embedding {embedding_dim}"]
            if concat:
                parts.append(f"predicate {self.predicate_embedding_dim}")
            if self.frame_feature_dim:
                parts.append(f"frame features {self.frame_feature_dim}")
            detail = f" ({' + '.join(parts)})" if len(parts) > 1 else ""
            raise ValueError(
                f"encoder input_dim is {self.encoder.get_input_dim()} but the model feeds it {fed}{detail}"
            )

    def get_sentence_output_dim(self) -> int:
        return self.encoder.get_output_dim()

    def encode_sentences(
        self, embedded: torch.Tensor, mask: torch.Tensor, context: Optional[BatchInputs] = None
    ) -> EncodedSentences:
        """The encoder over each sentence with no predicate marked (all indicators 0)."""
        return EncodedSentences(self._encode_layers(embedded, torch.zeros_like(mask, dtype=torch.long), mask))

    def forward(
        self,
        embedded: torch.Tensor,
        mask: torch.Tensor,
        predicate_indices: torch.Tensor,
        sentences: Optional[EncodedSentences] = None,
        frame_features: Optional[torch.Tensor] = None,
    ) -> list[torch.Tensor]:
        """Logits `(batch, num_frames, seq_len, num_labels)` per layer (zeros for padded frames)."""
        batch, num_frames = predicate_indices.shape
        rows = (predicate_indices >= 0).nonzero(as_tuple=False)  # (num_rows, 2): (sentence, frame)
        row_sentence, row_frame = rows[:, 0], rows[:, 1]
        row_features = frame_features[row_sentence, row_frame] if frame_features is not None else None
        outputs = []
        predicates = predicate_indices[row_sentence, row_frame]
        for row_logits in self.row_logits(embedded, mask, row_sentence, predicates, row_features):
            logits = row_logits.new_zeros(batch, num_frames, mask.size(1), row_logits.size(-1))
            logits[row_sentence, row_frame] = row_logits
            outputs.append(logits)
        return outputs

    def row_logits(
        self,
        embedded: torch.Tensor,
        mask: torch.Tensor,
        row_sentences: torch.Tensor,
        row_predicates: torch.Tensor,
        row_features: Optional[torch.Tensor] = None,
    ) -> list[torch.Tensor]:
        """Per layer `(rows, seq_len, num_labels)`: each row its sentence's words with its predicate marked,
        encoded and projected to tag logits."""
        positions = torch.arange(mask.size(1), device=mask.device).unsqueeze(0)
        indicator = (positions == row_predicates.unsqueeze(1)).long()
        layers = self._encode_layers(embedded[row_sentences], indicator, mask[row_sentences], row_features)
        return [self.tag_projection(hidden) for hidden in layers]  # each (rows, seq_len, num_labels)

    def _condition(
        self, words: torch.Tensor, indicator: torch.Tensor, features: Optional[torch.Tensor] = None
    ) -> torch.Tensor:
        predicate = self.predicate_embedding(indicator)
        if self.predicate_combination == "concat":
            conditioned = torch.cat([words, predicate], dim=-1)
        else:
            conditioned = words + predicate
        if features is not None:
            conditioned = torch.cat([conditioned, features.to(conditioned.dtype)], dim=-1)
        return conditioned

    def _runner(self) -> Callable[[torch.Tensor, torch.Tensor], list[torch.Tensor]]:
        if self.per_layer_loss:
            return self.encoder.forward_layers
        return lambda inputs, mask: [self.encoder(inputs, mask)]

    def _encode_layers(
        self,
        words: torch.Tensor,
        indicator: torch.Tensor,
        mask: torch.Tensor,
        features: Optional[torch.Tensor] = None,
    ) -> list[torch.Tensor]:
        """Encode rows `(rows, seq_len, dim)` (with `features (rows, seq_len, frame_feature_dim)`): the
        last layer, or every layer with `per_layer_loss`."""
        if self.frame_feature_dim and features is None:
            features = words.new_zeros(words.shape[:-1] + (self.frame_feature_dim,))  # sentences without a frame
        rows, length = indicator.shape
        if rows == 0:  # nothing to encode (no predicate anywhere in the batch)
            return [words.new_zeros(0, length, self.encoder.get_output_dim())]
        run = self._runner()
        if self.training or torch.onnx.is_in_onnx_export():  # an exported graph's host buckets rows by length
            return run(self._condition(words, indicator, features), mask)
        lengths = mask.sum(-1)
        order = torch.argsort(lengths, descending=True)
        sorted_lengths = lengths[order].tolist()
        outputs: Optional[list[torch.Tensor]] = None
        start = 0
        while start < rows:
            longest = max(sorted_lengths[start], 1)
            size = max(
                1, min(self.inference_chunk_elements // (longest * longest), self.inference_chunk_tokens // longest)
            )
            chunk = order[start : start + size]
            chunk_features = features[chunk, :longest] if features is not None else None
            layers = run(
                self._condition(words[chunk, :longest], indicator[chunk, :longest], chunk_features),
                mask[chunk, :longest],
            )
            if outputs is None:
                outputs = [layer.new_zeros(rows, length, layer.size(-1)) for layer in layers]
            for output, layer in zip(outputs, layers, strict=False):
                output[chunk, :longest] = layer.to(output.dtype)  # autocast may differ by chunk
            start += size
        return outputs  # type: ignore[return-value]
