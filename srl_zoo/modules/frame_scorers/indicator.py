"""The registered `indicator` frame scorer (the math: `srl_zoo.parts.scorers.indicator`)."""

from typing import Any, Optional

from allennlp.common import Lazy
from allennlp.data import Vocabulary
from allennlp.modules import Seq2SeqEncoder

from srl_zoo.modules.encoder_width import encoder_with_width
from srl_zoo.modules.frame_scorers.frame_scorer import ENCODER_KEY, FrameScorer, tag_output_of
from srl_zoo.modules.frame_scorers.tag_output import TagOutput
from srl_zoo.modules.plain_settings import takes_settings_of
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

    @takes_settings_of(indicator.IndicatorFrameScorer)
    def __init__(
        self,
        vocab: Vocabulary,
        encoder: Lazy[Seq2SeqEncoder],
        input_dim: int,
        output: Optional[Lazy[TagOutput]] = None,
        **settings: Any,
    ) -> None:
        widths = self.encoder_input_widths(input_dim, settings)
        label_namespace = settings["label_namespace"]
        super().__init__(
            as_sentence_encoder(encoder_with_width(encoder, widths, ENCODER_KEY, "the frame scorer")),
            tag_output_of(vocab, label_namespace, output),
            vocab.get_vocab_size(label_namespace),
            **settings,
        )
