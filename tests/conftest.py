import os

import srl_zoo  # noqa: F401  (registers readers, models, encoders, commands)

FIXTURES = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "fixtures")


def fixture_path(*parts: str) -> str:
    return os.path.join(FIXTURES, *parts)


REPO_ROOT = os.path.dirname(FIXTURES)

# Defaults for the variables the fixture configs read, so every test file also runs on its own;
# tests that need another value set it themselves.
for _name, _value in (
    ("SRL_ZOO_TEST_DECODING", "argmax"),
    ("SRL_ZOO_TEST_PREDICATE_SOURCE", "gold"),
    ("SRL_ZOO_TEST_SC_NEXT_INPUT", "output"),
    ("SRL_ZOO_TEST_SC_BILSTM", "false"),
    ("SRL_ZOO_TEST_SC_INITIAL_STATE", "zero"),
    ("SRL_ZOO_TEST_LISA_FORMAT", "conll2012"),
    ("SRL_ZOO_TEST_LISA_PARSE_LAYER", "1"),
):
    os.environ.setdefault(_name, _value)
