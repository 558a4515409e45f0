"""The command lines of the fixture engines (tests/support/gtp_engines):
small GTP programs that play at random or misbehave on request."""
import sys
from pathlib import Path

ENGINES = Path(__file__).resolve().parent / "gtp_engines"


def fixture_command(*flags, script="random_engine.py"):
    """The argv of a fixture engine of tests/support/gtp_engines."""
    return [sys.executable, str(ENGINES / script), *map(str, flags)]
