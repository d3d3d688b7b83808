import os

import pytest
from allennlp.commands.train import train_model_from_file

import srl_zoo.plugin  # noqa: F401  (registers readers, models, encoders, commands)

FIXTURES = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "fixtures")


def fixture_path(*parts: str) -> str:
    return os.path.join(FIXTURES, *parts)


REPO_ROOT = os.path.dirname(FIXTURES)

# Defaults for the variables the fixture configs read, so every test file also runs on its own;
# tests that need another value set it themselves (with monkeypatch, after this fixture).
FIXTURE_CONFIG_DEFAULTS = (
    ("SRL_ZOO_TEST_DECODING", "argmax"),
    ("SRL_ZOO_TEST_PREDICATE_SOURCE", "gold"),
    ("SRL_ZOO_TEST_SC_NEXT_INPUT", "output"),
    ("SRL_ZOO_TEST_SC_BILSTM", "false"),
    ("SRL_ZOO_TEST_SC_INITIAL_STATE", "zero"),
    ("SRL_ZOO_TEST_LISA_FORMAT", "conll2012"),
    ("SRL_ZOO_TEST_LISA_PARSE_LAYER", "1"),
    ("SRL_ZOO_TEST_AMN_SELECTOR", "edit_distance"),
    ("SRL_ZOO_TEST_AMN_MERGE", "average"),
)


@pytest.fixture(scope="session")
def extracted_archives(tmp_path_factory) -> str:
    """One folder per test run for the archives the runtime keeps extracted (not the checkout's .cache)."""
    return str(tmp_path_factory.mktemp("extracted-archives"))


@pytest.fixture(autouse=True)
def fixture_config_defaults(monkeypatch, extracted_archives):
    for name, value in FIXTURE_CONFIG_DEFAULTS:
        if name not in os.environ:
            monkeypatch.setenv(name, value)
    monkeypatch.setenv("SRL_ZOO_ARCHIVE_CACHE", extracted_archives)


def train_fixture_model(tmp_path_factory, config: str, environment=(), overrides: str = "") -> str:
    """Train a fixture config (relative to fixtures/) from the repository root with the given
    environment variables (restored afterwards); the path of its model.tar.gz."""
    serialization_dir = tmp_path_factory.mktemp(os.path.splitext(os.path.basename(config))[0])
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(REPO_ROOT)
        for name, value in environment:
            patch.setenv(name, value)
        train_model_from_file(os.path.join(FIXTURES, config), str(serialization_dir), overrides=overrides)
    return str(serialization_dir / "model.tar.gz")


@pytest.fixture(scope="session")
def predicate_model_archive(tmp_path_factory):
    """A small DeepAtt-FFN with predicate identification trained on the fixture (one per test run):
    the model the raw-text entry points (predictor, API, spaCy component, srl-label) are tested with.
    30 epochs: enough to label predicates (V) and some arguments."""
    return train_fixture_model(
        tmp_path_factory,
        "deepatt/ffn_predicate_identification.jsonnet",
        [("SRL_ZOO_TEST_PREDICATE_SOURCE", "gold")],
        '{"trainer.num_epochs": 30}',
    )


def pytest_terminal_summary(terminalreporter):
    """How many configs the every-config test trained (a new config cannot escape it: they are globbed)."""
    from tests.test_training_configs import ALL_CONFIGS, CONFIG_RUNS

    if CONFIG_RUNS:
        counts: dict = {}
        for outcome in CONFIG_RUNS.values():
            counts[outcome] = counts.get(outcome, 0) + 1
        summary = ", ".join(f"{count} {outcome}" for outcome, count in sorted(counts.items()))
        terminalreporter.write_line(f"every config as written: {len(CONFIG_RUNS)} of {len(ALL_CONFIGS)}: {summary}")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The tests that start Ray in this process run last: Ray's driver leaves process-wide state behind after
    `ray.shutdown()` (its signal handlers replaced, its threads' libraries loaded), which the others should not meet."""
    items.sort(key=lambda item: item.path.name.startswith("test_ray_"))  # stable: the rest keep their order
