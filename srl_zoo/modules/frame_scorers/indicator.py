"""The registered `indicator` frame scorer (the math: `srl_zoo.parts.scorers.indicator`)."""

from typing import Optional

from allennlp.common import Lazy
from allennlp.data import Vocabulary
from allennlp.modules import Seq2SeqEncoder

from srl_zoo.modules.encoder_width import encoder_with_width
from srl_zoo.modules.frame_scorers.frame_scorer import ENCODER_KEY, FrameScorer, tag_output_of
from srl_zoo.modules.frame_scorers.tag_output import TagOutput
from srl_zoo.modules.sentence_encoder import as_sentence_encoder
from srl_zoo.parts.scorers import indicator
from srl_zoo.parts.scorers.indicator import PREDICATE_COMBINATIONS

__all__ = ["PREDICATE_COMBINATIONS", "IndicatorFrameScorer"]


@FrameScorer.register("indicator")
class IndicatorFrameScorer(indicator.IndicatorFrameScorer, FrameScorer):
    """Expands the batch to one row per (sentence, predicate) with tensor indexing, concatenates (or
    adds) a predicate-mask embedding to the words as in DeepAtt, encodes each row and projects every
    token to BIO tag logits (`srl_zoo.parts.scorers.indicator`; here its output layer and tags come from
    the config and the vocabulary).

    # Parameters

    vocab : the vocabulary (`label_namespace` holds the BIO tags).
    encoder : the encoder (any allennlp `Seq2SeqEncoder`), built by the scorer with the input width it feeds it
        (`encoder_input_widths`): a config leaves `input_dim` out.
    input_dim : the words' width (the Model supplies the embedder's).
    output : the output layer (`TagOutput`): `{"type": "softmax", "decoding": ..., "label_smoothing": ...}`
        or `{"type": "crf"}`; None: softmax with argmax decoding and no smoothing.
    """

    def __init__(
        self,
        vocab: Vocabulary,
        encoder: Lazy[Seq2SeqEncoder],
        input_dim: int,
        predicate_embedding_dim: int = 100,
        predicate_combination: str = "concat",
        per_layer_loss: bool = False,
        inference_chunk_elements: int = 2_000_000,
        inference_chunk_tokens: int = 8192,
        label_namespace: str = "labels",
        frame_feature_dim: int = 0,
        output: Optional[Lazy[TagOutput]] = None,
    ) -> None:
        settings = {
            "predicate_embedding_dim": predicate_embedding_dim,
            "predicate_combination": predicate_combination,
            "frame_feature_dim": frame_feature_dim,
        }
        widths = self.encoder_input_widths(input_dim, settings)
        super().__init__(
            as_sentence_encoder(encoder_with_width(encoder, widths, ENCODER_KEY, "the frame scorer")),
            tag_output_of(vocab, label_namespace, output),
            vocab.get_vocab_size(label_namespace),
            predicate_embedding_dim,
            predicate_combination,
            per_layer_loss,
            inference_chunk_elements,
            inference_chunk_tokens,
            label_namespace,
            frame_feature_dim,
        )
