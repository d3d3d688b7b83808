"""AMN's associated memory (Guan et al. 2019): label-aware features per (sentence, predicate) and token,
read from the most similar labeled training sentences."""

import logging
from typing import Any, Optional

import torch
from allennlp.common import Lazy
from allennlp.data import Vocabulary
from allennlp.modules import Seq2SeqEncoder, TextFieldEmbedder

from srl_zoo.amn.bank_index import index_bank
from srl_zoo.amn.memory_bank import MemoryBank, MemoryQuery
from srl_zoo.amn.memory_queries import POS_SOURCES, memory_queries
from srl_zoo.amn.memory_words import MemoryWords, ModelWordEmbedding, memory_words_of
from srl_zoo.amn.neighbour_memo import NeighbourMemo
from srl_zoo.amn.selectors import EditDistanceSelector, NeighbourSelector, WordVectors
from srl_zoo.modules.encoder_width import encoder_with_width
from srl_zoo.modules.frame_features import FrameFeatures
from srl_zoo.nn.json_tensor import json_to_tensor, tensor_to_json
from srl_zoo.parts.frame_features.frame_feature_inputs import FrameFeatureInputs
from srl_zoo.parts.frame_features.memory_reading import MemoryReading

logger = logging.getLogger(__name__)


@FrameFeatures.register("associated_memory")
class AssociatedMemory(FrameFeatures, MemoryReading):
    """For every (sentence, predicate) of a batch, the `num_neighbours` nearest labeled (sentence,
    predicate) pairs of the training data (the memory bank, chosen by a `NeighbourSelector`) are
    encoded with a shared `encoder` (words + a predicate-flag embedding), like the target (words: the
    model's single-id embedding, or with a transformer its word-piece input embeddings averaged per word,
    `srl_zoo/amn/memory_words.py`); each target
    token attends (dot product, neighbour padding masked) over each neighbour's tokens, and the
    attention weights average `label_dim`-d embeddings of the neighbour's gold tags; the neighbours'
    vectors are merged (`average`, `concat`, `weighted`, `flat`). The Model hands the result to the
    frame scorer, which concatenates it to the words of each (sentence, predicate) row. The encoding and reading
    are `srl_zoo.parts.frame_features.memory_reading.MemoryReading`'s; this part holds the bank and finds the
    neighbours (`neighbour_memo.py`: memoised, the training queries' cached; `memory_queries.py`: the queries;
    `bank_index.py`: the bank as index tensors).

    The bank is read from `train_data_path` when the model is built (`prepare`; not when an archive
    is being loaded: its weights bring the bank) and lives in the model's state dict (so a model
    archive predicts without the data); neighbours are memoised per query, and
    the training queries' neighbours are computed in one pass when the bank is built and cached in
    `neighbour_cache` (reused by later runs on the same data). The neighbour search runs on the host
    from the batch's words and POS: one host-device synchronisation per batch on a GPU.

    # Parameters

    vocab : the vocabulary (`tokens` for the neighbours' words, `label_namespace` for their tags,
        `pos` for POS predicted by the model's tagger).
    word_dim : width of the model's word embeddings (the Model supplies it).
    encoder : the shared encoder (paper: a 2-layer BiLSTM, 512), built for its input, `word_dim + flag_dim` (a config
        leaves its width out).
    train_data_path : the labeled sentences to remember (usually the training file).
    reader : the dataset reader's parameters used to read it (e.g. `{"type": "conll2009"}`).
    selector : how neighbours are chosen (`edit_distance` over POS sequences, `sif`, `relaxed_wmd` over
        the model's word vectors as initialised, or `random`).
    num_neighbours : m (paper: 4).
    merge : `average` (paper's best), `concat`, `weighted` or `flat`.
    label_dim : width of the tag embeddings (paper: 128).
    flag_dim : width of the predicate-flag embedding of the shared encoder (paper: 16).
    pos_source : where the POS of sentences to label comes from for `edit_distance`: `data` (the
        file's or the request's `pos`), `tagger` (the model's POS tagger, e.g. LISA's joint
        POS/predicate head; training still uses the data's), or `auto` (the data's where given, else
        the tagger's). Missing POS is a clear error.
    lowercase_tokens : look the neighbours' words up lowercased (as the model's token indexer does).
    neighbour_cache : a JSON file for the training queries' neighbours (written if absent or stale).
    label_namespace : vocabulary namespace of the tags.
    """

    # buffers (see `bank_index.py`): the bank's token ids, lengths, sentence, predicate and tag ids per entry
    _bank_tokens: torch.Tensor
    _bank_lengths: torch.Tensor
    _bank_sentence: torch.Tensor
    _bank_predicate: torch.Tensor
    _bank_tags: torch.Tensor

    def __init__(
        self,
        vocab: Vocabulary,
        word_dim: int,
        encoder: Lazy[Seq2SeqEncoder],
        train_data_path: Optional[str] = None,
        reader: Optional[dict[str, Any]] = None,
        selector: Optional[NeighbourSelector] = None,
        num_neighbours: int = 4,
        merge: str = "average",
        label_dim: int = 128,
        flag_dim: int = 16,
        pos_source: str = "auto",
        lowercase_tokens: bool = False,
        neighbour_cache: Optional[str] = None,
        label_namespace: str = "labels",
    ) -> None:
        if pos_source not in POS_SOURCES:
            raise ValueError(f"pos_source must be one of {POS_SOURCES}, got {pos_source!r}")
        widths = {"words": word_dim, "predicate flag": flag_dim}
        built = encoder_with_width(encoder, widths, "model.frame_features.encoder", "the associated memory")
        labels = vocab.get_vocab_size(label_namespace)
        super().__init__(built, flag_dim, labels, label_dim, num_neighbours, merge)
        self.vocab = vocab
        self.train_data_path = train_data_path
        self.reader_params = reader or {}
        self.selector = selector or EditDistanceSelector()
        self.pos_source = pos_source
        self.lowercase_tokens = lowercase_tokens
        self.label_namespace = label_namespace
        self.bank: Optional[MemoryBank] = None
        self.word_vectors: Optional[torch.Tensor] = None  # (vocab, dim) snapshot for word-vector selectors
        # The bank travels in the state dict as tensors: its JSON as bytes, and the word vectors used.
        self.register_buffer("bank_state", torch.zeros(0, dtype=torch.uint8))
        self.register_buffer("bank_word_vectors", torch.zeros(0))
        self._memo = NeighbourMemo(self.selector, num_neighbours, neighbour_cache)
        self._words: Optional[MemoryWords] = None

    def get_output_dim(self) -> int:
        return self.output_dim

    def prepare(self, embedder: TextFieldEmbedder, predicts_pos: bool) -> None:
        """Choose how words become vectors (`memory_words_of`: the model's single-id `tokens` embedding, or
        its transformer's word-piece input embeddings) and check that `pos_source: tagger` has a tagger. The
        bank comes with saved weights (`_load_from_state_dict`) or is read when first needed (`forward`)."""
        self._words = memory_words_of(embedder, self.vocab, self.lowercase_tokens)
        if self.pos_source == "tagger" and not predicts_pos:
            raise ValueError("the memory's pos_source 'tagger' needs a POS-tagging head (joint_pos_predicate)")

    # ---- the bank -------------------------------------------------------------------------------

    def _ensure_bank(self) -> None:
        """Read the bank from `train_data_path` (once) and prepare the selector."""
        if self.bank is not None:
            return
        if self.train_data_path is None:
            raise ValueError("the associated memory needs train_data_path (the labeled sentences to remember)")
        bank = MemoryBank.read(self.train_data_path, self.reader_params)
        if not len(bank):
            raise ValueError(f"{self.train_data_path}: no predicate to remember")
        vectors = None
        if self.selector.needs_word_vectors:
            with torch.no_grad():
                vectors = self._prepared_words().vocabulary_vectors()
            if vectors is None:
                raise ValueError(
                    f"the {type(self.selector).__name__} selector reads word vectors of the 'tokens' vocabulary, "
                    "which a transformer embedder has not: use the edit_distance or random selector"
                )
        self._install(bank, vectors)
        logger.info("associated memory: %d predicates of %d sentences", len(bank), len(bank.words))

    def _install(self, bank: MemoryBank, vectors: Optional[torch.Tensor]) -> None:
        """Index the bank's words and tags with the vocabulary and build the selector."""
        self.bank, self.word_vectors = bank, vectors
        device = self.flag_embedding.weight.device
        self.register_buffer("bank_state", json_to_tensor(bank.to_state()).to(device))
        self.register_buffer("bank_word_vectors", vectors.to(device) if vectors is not None else torch.zeros(0))
        index = index_bank(bank, self._prepared_words(), self.vocab.get_token_to_index_vocabulary(self.label_namespace))
        # index tensors: non-persistent buffers (they follow `.to(device)`; the state dict keeps the bank itself)
        self.register_buffer("_bank_tokens", index.tokens.to(device), persistent=False)  # (sentences, longest)
        self.register_buffer("_bank_lengths", index.lengths.to(device), persistent=False)  # (sentences,)
        self.register_buffer("_bank_sentence", index.sentence.to(device), persistent=False)  # (entries,)
        self.register_buffer("_bank_predicate", index.predicate.to(device), persistent=False)  # (entries,)
        self.register_buffer("_bank_tags", index.tags.to(device), persistent=False)  # (entries, longest)
        words = self._prepared_words()
        word_vectors = None
        if vectors is not None and isinstance(words, ModelWordEmbedding):
            word_vectors = WordVectors(vectors, words.word_id)
        self.selector.build(bank, word_vectors)
        self._memo.forget()

    def _prepared_words(self) -> MemoryWords:
        if self._words is None:
            raise ValueError("the associated memory was not prepared by its model (FrameFeatures.prepare)")
        return self._words

    def _load_from_state_dict(self, state_dict: dict[str, Any], prefix: str, *args: Any, **kwargs: Any) -> None:
        """Install the bank of a saved model (its buffers' sizes are those of the saved bank)."""
        saved = state_dict.get(prefix + "bank_state")
        if saved is not None and saved.numel():
            vectors = state_dict.get(prefix + "bank_word_vectors")
            bank = MemoryBank.from_state(tensor_to_json(saved))
            self._install(bank, vectors.cpu() if vectors is not None and vectors.numel() else None)
        super()._load_from_state_dict(state_dict, prefix, *args, **kwargs)

    # ---- neighbours -----------------------------------------------------------------------------

    def neighbours(self, queries: list[MemoryQuery]) -> list[list[int]]:
        """Bank entries per query, nearest first (memoised)."""
        return self._memo.neighbours(queries)

    # ---- the features ---------------------------------------------------------------------------

    def forward(self, inputs: FrameFeatureInputs) -> torch.Tensor:
        """`(batch, num_frames, seq_len, output_dim)` (zeros for padded frames); `inputs.metadata` must give
        each sentence's `words` (and `pos` when the selector reads POS)."""
        words = self._prepared_words()
        if inputs.metadata is None:
            raise ValueError("the associated memory needs the batch's metadata (words, POS)")
        metadata, predicted_pos = inputs.metadata, inputs.predicted_pos
        embedded, mask, predicate_indices = inputs.embedded, inputs.mask, inputs.predicate_indices
        self._ensure_bank()
        if self.training:
            assert self.bank is not None
            self._memo.prepare_training(self.bank)
        batch, num_frames = predicate_indices.shape
        output = embedded.new_zeros(batch, num_frames, mask.size(1), self.output_dim)
        # (sentence, predicate) per real frame, in the row-major order of `nonzero` below
        rows = [[b, p] for b, predicates in enumerate(predicate_indices.tolist()) for p in predicates if p >= 0]
        if not rows:
            return output
        frame_rows = (predicate_indices >= 0).nonzero(as_tuple=False)  # (rows, 2): (sentence, frame)
        pos_tags = self._predicted_pos_tags(predicted_pos, mask) if predicted_pos is not None else None
        queries = memory_queries(rows, metadata, pos_tags, self.selector.needs_pos, self.pos_source, self.training)
        neighbours = self.neighbours(queries)
        row_sentence, row_frame = frame_rows[:, 0], frame_rows[:, 1]

        # the target rows, encoded with their predicate flagged
        positions = torch.arange(mask.size(1), device=mask.device)
        row_predicate = predicate_indices[row_sentence, row_frame]  # (rows,)
        row_mask = mask[row_sentence]  # (rows, seq_len)
        flagged = positions == row_predicate.unsqueeze(1)  # (rows, seq_len)
        target = self.encode(words.embed_targets(inputs)[row_sentence], flagged, row_mask)

        # each distinct neighbour of the batch encoded once
        table = torch.tensor(
            [found + [-1] * (self.num_neighbours - len(found)) for found in neighbours], device=mask.device
        )  # (rows, m)
        entries, inverse = torch.unique(table.clamp(min=0), return_inverse=True)  # (distinct,), (rows, m)
        sentences = self._bank_sentence[entries]
        length = int(self._bank_lengths[sentences].max())
        neighbour_mask = torch.arange(length, device=mask.device) < self._bank_lengths[sentences].unsqueeze(1)
        vectors = words.embed_ids(self._bank_tokens[sentences, :length])  # (distinct, n_len, word_dim)
        flags = torch.arange(length, device=mask.device) == self._bank_predicate[entries].unsqueeze(1)
        encoded = self.encode(vectors, flags, neighbour_mask)  # (distinct, n_len, hidden)
        tags = self._bank_tags[entries, :length]  # (distinct, n_len)
        merged = self.read(target, row_mask, encoded, neighbour_mask, tags, inverse, table >= 0)
        output[row_sentence, row_frame] = merged.to(output.dtype)
        return output

    def _predicted_pos_tags(self, predicted_pos: torch.Tensor, mask: torch.Tensor) -> list[list[str]]:
        lengths = mask.sum(-1).tolist()
        return [
            [self.vocab.get_token_from_index(i, "pos") for i in ids[:length]]
            for ids, length in zip(predicted_pos.tolist(), lengths, strict=False)
        ]
