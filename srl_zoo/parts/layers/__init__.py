"""Shared building blocks: attention, residuals, sub-layers, timing signals, biaffine scorers."""
