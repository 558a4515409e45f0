"""Fixtures of the match tests: the fixture engines' command lines and a
morat built once per session."""
import sys
from pathlib import Path

import pytest

import morat as morat_support

ENGINES = Path(__file__).resolve().parents[1] / "support" / "gtp_engines"


def fixture_command(*flags, script="random_engine.py"):
    """The argv of a fixture engine of tests/support/gtp_engines."""
    return [sys.executable, str(ENGINES / script), *map(str, flags)]


@pytest.fixture
def engine_command():
    return fixture_command


@pytest.fixture(scope="session")
def morat(tmp_path_factory):
    """The built morat (skips without ../shared/engines)."""
    return morat_support.Morat(morat_support.build(tmp_path_factory.mktemp("engines")))
