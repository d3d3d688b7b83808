"""The shims srl_zoo puts between allennlp 2.10.1 and Hugging Face transformers, in one place: allennlp's word-piece
tokenizer made one call per sentence instead of one per word (`batched_wordpieces`), BERT's self-attention in
transformers 4.25.1 (pinned with allennlp) through torch's fused kernel (`fused_attention`), and the special tokens
around folded segments that transformers 5 (a GPU image's) no longer builds (`special_tokens`). Each leaves the
model's numbers as they were (each module's tests compare it with the code it stands in for); the runtime needs
none of them (`srl_zoo.pretrained.word_pieces` and `srl_zoo.parts.embedders.bert` are its own)."""

from srl_zoo.pretrained.batched_wordpieces import use_batched_wordpieces
from srl_zoo.pretrained.fused_attention import use_fused_attention
from srl_zoo.pretrained.special_tokens import use_special_tokens_fallback


def use_transformer_shims() -> None:
    """Apply the three shims; each is applied once however often this runs."""
    use_batched_wordpieces()
    use_fused_attention()
    use_special_tokens_fallback()
