"""The labeling front, without torch or allennlp: raw text split into sentences of words (`text`), requests checked
(`requests`), sentences batched within a budget (`batch_budget`), each sentence's output finished
(`sentence_output`), the text side every labeler shares (`text_labeling`) and what a labeler gives its callers
(`labeler_contract`). The runtime's labeler and the allennlp `Labeler` both stand on it."""
