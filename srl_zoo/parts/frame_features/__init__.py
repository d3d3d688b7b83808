"""Frame features (the `frame_features` key): extra token features per (sentence, predicate) beside the words; AMN's
associated memory."""
