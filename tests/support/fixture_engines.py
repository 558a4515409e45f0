"""The command lines of the fixture engines in tests/support/gtp_engines:
small Python programs that speak GTP as third-party engines do, correct or
misbehaving on request (see each script's docstring)."""
import sys
from pathlib import Path

FOLDER = Path(__file__).resolve().parent / "gtp_engines"


def command(*flags, script="random_engine.py"):
    """The argv of a fixture engine run by this interpreter."""
    return [sys.executable, str(FOLDER / script), *map(str, flags)]
