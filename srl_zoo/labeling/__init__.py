"""Labeling a corpus: input chunks, the input pipeline that prepares them in worker processes, the rendering of
output records, and the blocks of a run on Ray (`ray_corpus`, `ray_data`: the only modules that import Ray)."""
