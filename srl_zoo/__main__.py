"""`python -m srl_zoo COMMAND ...`: the `srl-zoo` console script."""

from srl_zoo.cli import main

main()
