"""srl_zoo's benchmarks: speed and memory measured by scripts, never by timed tests. One entry point,
`python -m benchmarks NAME [ARGS]` from the repository root (`python -m benchmarks` lists them; elsewhere Python
finds fairscale's stray top-level `benchmarks` package instead), and shared
timing helpers (`benchmarks/timing.py`). Each benchmark's docstring says what it measures and how to run it;
`docs/benchmarks.md` holds the figures with the command that made each."""
