"""Shared fixtures: where the contest data lives, how to run the CLI, the
engines the match tests play, and which tests stay out of the sanitizer
build."""
import os
import subprocess
import sys
from pathlib import Path

import pytest

# The reference judges and shared board builders, importable by every test.
sys.path.insert(0, str(Path(__file__).resolve().parent / "support"))

import needs  # noqa: E402

# ../shared/conformance beside the checkout; absent for an installed wheel.
CONFORMANCE = Path(__file__).resolve().parents[1].parent / "shared" / "conformance"


@pytest.fixture
def conformance_dir():
    return needs.shared("conformance", need="conformance")


@pytest.fixture
def engine_command():
    """``engine_command(*flags, script=...)``: a fixture engine's argv."""
    from engine_commands import fixture_command

    return fixture_command


@pytest.fixture(scope="session")
def morat(tmp_path_factory):
    """morat built once a session from ../shared/engines (skips without it;
    HAVHEX_MORAT_DIR names a build to reuse, see tests/support/morat.py)."""
    import morat as morat_support

    return morat_support.Morat(morat_support.build(tmp_path_factory.mktemp("engines")))


# .ci/run sets this when the suite runs on the build made with AddressSanitizer
# and UndefinedBehaviorSanitizer (LD_PRELOADed, so every child process of a
# test inherits it).
SANITIZED = os.environ.get("HAVHEX_SANITIZED") == "1"


def pytest_collection_modifyitems(config, items):
    """Tests marked ``not_under_sanitizers(reason)`` skip, with their reason,
    in the sanitizer build; the reason is required in every build."""
    for item in items:
        marker = item.get_closest_marker("not_under_sanitizers")
        if marker is None:
            continue
        reason = marker.args[0] if marker.args else marker.kwargs.get("reason")
        if not reason:
            raise pytest.UsageError(f"{item.nodeid}: not_under_sanitizers needs a reason")
        if SANITIZED:
            item.add_marker(pytest.mark.skip(reason=f"not under sanitizers: {reason}"))


def run_cli(*args, stdin=None, cwd=None):
    """Run ``python -m havhex`` with ``args``; returns the CompletedProcess."""
    return subprocess.run(
        [sys.executable, "-m", "havhex", *map(str, args)],
        input=stdin, capture_output=True, cwd=cwd,
        env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"},
    )


@pytest.fixture
def cli():
    return run_cli


def write(folder, name, text):
    """Write ``text`` (str or bytes) to ``folder/name``; return the path."""
    path = folder / name
    path.write_bytes(text.encode() if isinstance(text, str) else text)
    return path


def one_error_line(process):
    """Check a bad-input exit: status 1, nothing on stdout, no traceback, and
    exactly one line on stderr, which is returned."""
    err = process.stderr.decode()
    assert process.returncode == 1, err
    assert process.stdout == b""
    assert "Traceback" not in err
    assert err.endswith("\n") and err.count("\n") == 1, err
    return err


@pytest.fixture
def other_game():
    """Hex's descriptor under another name and title (of two words, which
    the adapters' ids and class names write as one), registered with
    havhex.games for the test and taken out of the registry after it."""
    import copy

    from havhex import games

    # A copy keeps every field of Hex's descriptor, the batch among them,
    # whatever fields the descriptor has.
    descriptor = copy.copy(games.get("hex"))
    descriptor.name, descriptor.title = "otherhex", "Other Hex"
    games.register(descriptor)
    try:
        yield descriptor
    finally:
        games.unregister(descriptor.name)
