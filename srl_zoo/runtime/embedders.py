"""The word embedders the runtime builds from an archive (the `text_field_embedder` key): a transformer's mean
word-piece vectors (`pretrained_transformer_mismatched`, `pretrained_transformer_adapted`) or a word table
(`embedding`, GloVe's). Each `prepare`s a batch on the host and embeds it on the device."""

import json
import os
from collections.abc import Sequence
from typing import Any, Optional

import torch
from torch import nn

from srl_zoo.archive_contents import NO_CODE_NO_DOWNLOAD, no_code_kwargs
from srl_zoo.archive_files import ArchiveError
from srl_zoo.graphs.contract import GRAPH_PIECE_INPUTS
from srl_zoo.parts.embedders.adapted_transformer import freeze_and_adapt
from srl_zoo.parts.embedders.bert import BertEncoder, is_plain_bert
from srl_zoo.parts.embedders.word_pieces import mean_of_pieces
from srl_zoo.pretrained.word_pieces import PieceBatch, WordPieces
from srl_zoo.runtime.weights import PartWeights

#: where an archive keeps the token embedder's weights
PREFIX = "text_field_embedder.token_embedder_tokens."
TRANSFORMER_PREFIX = PREFIX + "_matched_embedder.transformer_model."


class WordEmbedder(nn.Module):
    """What the labeling model asks of its embedder: `prepare(sentences)` on the host (CPU tensors, or a dataclass
    of them), then `forward(prepared)` on the device, `(batch, num_words, output_dim)` word vectors."""

    #: the width of a word vector
    output_dim: int

    #: the inputs of an inference graph of the embedder, in `graph_embed`'s order (`srl_zoo.graphs.contract`)
    graph_inputs: tuple[str, ...] = ()

    def prepare(self, sentences: Sequence[Sequence[str]]) -> Any:
        raise NotImplementedError

    def graph_example(self, prepared: Any) -> tuple[torch.Tensor, ...]:
        """`prepare`'s output as the tensors `graph_embed` takes (an export's example inputs)."""
        raise NotImplementedError(f"the {type(self).__name__} embedder has no inference-graph form yet")

    def graph_embed(self, *inputs: torch.Tensor) -> torch.Tensor:
        """`(batch, num_words, output_dim)` word vectors of `graph_inputs` and, last, `word_mask (batch,
        num_words)`: what the sentence graph computes first."""
        raise NotImplementedError(f"the {type(self).__name__} embedder has no inference-graph form yet")


class TransformerWords(WordEmbedder):
    """Each word the mean of its pieces' vectors in the transformer's last layer.

    # Parameters

    transformer : `(input_ids, attention_mask)` to the last layer's vectors: `BertEncoder` or `HuggingFaceEncoder`.
    pieces : the archive's tokenizer (`WordPieces`).
    output_dim : the transformer's width (its config's `hidden_size`).
    """

    def __init__(self, transformer: nn.Module, pieces: WordPieces, output_dim: int) -> None:
        super().__init__()
        self.transformer = transformer
        self.pieces = pieces
        self.output_dim = output_dim

    def prepare(self, sentences: Sequence[Sequence[str]]) -> PieceBatch:
        """The host's share: word pieces of `sentences` (numpy arrays)."""
        return self.pieces.batch(sentences)

    def forward(self, batch: PieceBatch) -> torch.Tensor:
        """`(batch, num_words, dim)` word vectors."""
        device = next(self.transformer.parameters(), torch.empty(0)).device
        ids, attention, rows, positions, slots = (
            torch.from_numpy(values).to(device)
            for values in (batch.ids, batch.attention_mask, batch.piece_rows, batch.piece_positions, batch.piece_slots)
        )
        return self.embed_pieces(ids, attention, rows, positions, slots, batch.num_sentences, batch.num_words)

    graph_inputs = GRAPH_PIECE_INPUTS

    def graph_example(self, prepared: PieceBatch) -> tuple[torch.Tensor, ...]:
        fields = (prepared.ids, prepared.attention_mask.astype("int64"), prepared.piece_rows,
                  prepared.piece_positions, prepared.piece_slots)  # fmt: skip
        return tuple(torch.from_numpy(values) for values in fields)

    def graph_embed(self, *inputs: torch.Tensor) -> torch.Tensor:
        ids, attention_mask, piece_rows, piece_positions, piece_slots, word_mask = inputs
        batch, num_words = word_mask.shape
        return self.embed_pieces(ids, attention_mask.bool(), piece_rows, piece_positions, piece_slots, batch, num_words)

    def embed_pieces(
        self,
        ids: torch.Tensor,
        attention_mask: torch.Tensor,
        piece_rows: torch.Tensor,
        piece_positions: torch.Tensor,
        piece_slots: torch.Tensor,
        num_sentences: int,
        num_words: int,
    ) -> torch.Tensor:
        """`(num_sentences, num_words, dim)` word vectors of the pieces (`PieceBatch`'s fields as tensors); the
        inference graph's sentence part runs this too."""
        hidden = self.transformer(ids, attention_mask)  # (rows, row_length, dim)
        vectors = hidden[piece_rows, piece_positions]  # (num_pieces, dim)
        return mean_of_pieces(vectors, piece_slots, num_sentences * num_words).view(num_sentences, num_words, -1)


class WordTable(WordEmbedder):
    """Each word its row of a trained table (`embedding`, e.g. GloVe-initialised), looked up lowercased if the
    archive's indexer lowercased.

    # Parameters

    token_to_index : the `tokens` namespace; lowercase : whether words are lowercased first.
    dim : the width of a row (the table, `(num_tokens, dim)`, is loaded into `table` afterwards).
    """

    def __init__(self, token_to_index: dict[str, int], lowercase: bool, dim: int) -> None:
        super().__init__()
        self.token_to_index = token_to_index
        self.lowercase = lowercase
        self.unknown = token_to_index["@@UNKNOWN@@"]
        self.output_dim = dim
        self.table = nn.Embedding(len(token_to_index), dim, padding_idx=0).requires_grad_(False)

    def prepare(self, sentences: Sequence[Sequence[str]]) -> torch.Tensor:
        """`(batch, num_words)` word ids, 0-padded."""
        longest = max(len(words) for words in sentences)
        ids = torch.zeros(len(sentences), longest, dtype=torch.long)
        for row, words in enumerate(sentences):
            found = [self.token_to_index.get(w.lower() if self.lowercase else w, self.unknown) for w in words]
            ids[row, : len(found)] = torch.tensor(found, dtype=torch.long)
        return ids

    def forward(self, ids: torch.Tensor) -> torch.Tensor:
        return self.table(ids)


class HuggingFaceEncoder(nn.Module):
    """A Hugging Face encoder as the runtime calls one: `(input_ids, attention_mask)` in, last layer out.

    # Parameters

    model : e.g. `AutoModel.from_config(...)`, its weights loaded.
    """

    def __init__(self, model: nn.Module) -> None:
        super().__init__()
        self.model = model

    def forward(self, input_ids: torch.Tensor, attention_mask: torch.Tensor) -> torch.Tensor:
        """`(batch, length, dim)` vectors of the last layer."""
        return self.model(
            input_ids=input_ids, attention_mask=attention_mask.long(), token_type_ids=torch.zeros_like(input_ids)
        ).last_hidden_state


def _transformer_config(directory: str, settings: dict[str, Any]) -> dict[str, Any]:
    """The archive's transformer config (`config.json`) with the config's `transformer_kwargs` applied (those that
    are the transformer's settings, not loading options)."""
    with open(os.path.join(directory, "config.json"), encoding="utf-8") as handle:
        given = settings.get("transformer_kwargs") or {}
        return {**json.load(handle), **{k: v for k, v in given.items() if k not in NO_CODE_NO_DOWNLOAD}}


def _huggingface(archive: str, directory: str, settings: dict[str, Any], model_type: Optional[str]) -> nn.Module:
    """A Hugging Face encoder made from the archive's transformer config (and `transformer_kwargs`), no weights;
    `ArchiveError` saying what to install where transformers is not installed."""
    try:
        from transformers import AutoConfig, AutoModel
    except ImportError:
        raise ArchiveError(
            archive,
            f"its encoder ({model_type}) needs transformers, not installed here: pip install 'transformers>=4.25.1' "
            "(or srl_zoo with its extra: pip install '.[transformers]')",
        ) from None

    from transformers.activations import ACT2FN

    try:
        config = AutoConfig.from_pretrained(directory, **no_code_kwargs(settings.get("transformer_kwargs")))
        activation = getattr(config, "hidden_act", "gelu")
        if isinstance(activation, str) and activation not in ACT2FN:
            raise ValueError(f"hidden_act {activation!r} is not an activation transformers knows")
        return AutoModel.from_config(config, trust_remote_code=False)
    except (OSError, ValueError, KeyError, TypeError) as error:  # a config transformers cannot read or build
        reason = (str(error).strip().splitlines() or [type(error).__name__])[0]
        raise ArchiveError(archive, f"transformer/config.json: {reason.replace(directory, 'transformer')}") from None


def build_embedder(
    archive: str,
    directory: str,
    settings: dict[str, Any],
    indexer: dict[str, Any],
    vocabulary: dict[str, dict[int, str]],
    weights: dict,
) -> tuple[WordEmbedder, list[PartWeights]]:
    """The token embedder `settings` (the config's `text_field_embedder.token_embedders.tokens`) describes, and
    where its weights are (`load_parts` puts them in); `indexer` is the reader's `token_indexers.tokens` (a word
    table's lowercasing is the indexer's: allennlp's `single_id` keeps the case unless told); `archive` names the
    file in errors, `directory` is where it was extracted."""
    kind = settings.get("type")
    if kind == "embedding":
        tokens = {token: index for index, token in vocabulary["tokens"].items()}
        words = WordTable(tokens, bool(indexer.get("lowercase_tokens", False)), settings["embedding_dim"])
        return words, [PartWeights(words.table, PREFIX, weights)]
    if not settings.get("last_layer_only", True):
        raise ArchiveError(archive, "the runtime reads a transformer's last layer only (last_layer_only: false)")
    transformer_folder = os.path.join(directory, "transformer")
    pieces = WordPieces(transformer_folder, settings.get("max_length"))
    config = _transformer_config(transformer_folder, settings)
    if kind == "pretrained_transformer_mismatched" and is_plain_bert(config):  # no transformers needed
        bert = BertEncoder(config)  # (made on the meta device, it would import torch's meta kernels: 1-2 s)
        without_pooler = {k: v for k, v in weights.items() if ".pooler." not in k}
        return TransformerWords(bert, pieces, config["hidden_size"]), [
            PartWeights(bert, TRANSFORMER_PREFIX, without_pooler)
        ]
    transformer = _huggingface(archive, transformer_folder, settings, config.get("model_type"))
    if kind == "pretrained_transformer_adapted":
        adapter = (settings.get("adapter_rank", 16), settings.get("adapter_alpha", 32.0), 0.0)
        frozen = freeze_and_adapt(
            transformer, settings["frozen_weights"], settings.get("frozen_precision", "float32"), adapter,
            settings.get("adapted_modules", "encoder.layer"), settings.get("trained_modules", ()),
        )  # fmt: skip
        frozen_state = transformer.state_dict()
        weights = {**{TRANSFORMER_PREFIX + name: frozen_state[name] for name in frozen}, **weights}
    return TransformerWords(HuggingFaceEncoder(transformer), pieces, config["hidden_size"]), [
        PartWeights(transformer, TRANSFORMER_PREFIX, weights)
    ]
