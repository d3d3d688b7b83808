"""The labelling tests share the srl-label tests' labeler of the fixture model."""

from tests.commands.conftest import labeler  # noqa: F401
