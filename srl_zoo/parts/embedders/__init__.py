"""Word embedders (the `text_field_embedder` key): word-piece vectors pooled into one vector per word."""
