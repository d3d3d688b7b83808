import os
import srl_zoo  # noqa: F401  (registers readers, models, encoders, commands)

FIXTURES = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "fixtures")


def fixture_path(*parts: str) -> str:
    return os.path.join(FIXTURES, *parts)

REPO_ROOT = os.path.dirname(FIXTURES)
