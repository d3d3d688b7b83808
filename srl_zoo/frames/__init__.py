"""What a predicate's roleset and its roles mean: PropBank's frame files as a compact table, the lemmas
that look rolesets up, and the readable keys they add to labeled frames."""
