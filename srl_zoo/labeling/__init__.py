"""Labelling a corpus: input chunks, the input pipeline that prepares them in worker processes, the
rendering of output records, and the shares of a run spread over several processes."""
