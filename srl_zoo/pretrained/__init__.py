"""Pretrained parts built offline from pinned, hash-checked packages (the MiniLM encoder)."""
