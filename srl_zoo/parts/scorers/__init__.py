"""Frame scorers (the `frame_scorer` key): how predicates condition the words and tags are scored."""
