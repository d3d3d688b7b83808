"""What an archive's inference graphs are: the files, and the inputs srl_zoo feeds and the outputs it reads. The
exporter (`srl_zoo.runtime.graph_export`) writes by it and the graph runtime checks every graph against it."""

#: the manifest of an archive's graphs, beside `weights.th` at its top (the graphs' files and how to decode them);
#: the graphs lie there too, as `graph-*.onnx`, their weights read from `weights.th` (`srl_zoo.runtime.shared_weights`)
MANIFEST = "graphs.json"
#: the manifest's key of the SHA-256 of the `weights.th` its graphs read (at fixed offsets: another file is refused)
WEIGHTS_DIGEST = "weights_sha256"
#: the file names a graph may have
GRAPH_FILE = r"graph-[a-z0-9-]+\.onnx"
#: the manifest's version
FORMAT = 1

#: the sentence graph's inputs for a transformer's words: word pieces as `srl_zoo.pretrained.word_pieces.PieceBatch`
#: gives them (`piece_ids`, `piece_mask` int64 `(rows, row_length)`; where each word piece sits and its word,
#: `(num_pieces,)`), then every graph's `word_mask`
GRAPH_PIECE_INPUTS = ("piece_ids", "piece_mask", "piece_rows", "piece_positions", "piece_slots")
#: `(batch, num_words)` bool, the real words
WORD_MASK = "word_mask"
#: the sentence graph's outputs: `(batch, num_words, dim)` float32 words, then (with a predicate head)
#: `(batch, num_words, num_predicate_labels)` the head's logits
SENTENCE_OUTPUTS = ("words", "predicate_logits")
#: the frame graph's inputs: the sentence graph's `words`, `word_mask`, and per frame row `(rows,)` int64 its
#: sentence and its predicate's position
FRAME_INPUTS = ("words", WORD_MASK, "row_sentences", "row_predicates")
#: the frame graph's output: `(rows, num_words, num_labels)` float32, what the manifest's decoder decodes
FRAME_OUTPUTS = ("tag_scores",)
#: the inputs of the sentence graph by the manifest's `embedder`
EMBEDDER_INPUTS = {"word_pieces": GRAPH_PIECE_INPUTS}

#: the operator domains a graph may use: the standard ONNX ones ("" is `ai.onnx`)
STANDARD_DOMAINS = frozenset({"", "ai.onnx", "ai.onnx.ml"})
