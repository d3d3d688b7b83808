"""Output layers of a frame scorer (the `output` key): softmax and CRF, their decoding and span scores."""
