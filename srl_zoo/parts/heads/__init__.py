"""Predicate heads (the `predicate_head` key) and their sense table."""
