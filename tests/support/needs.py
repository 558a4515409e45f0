"""What a test needs that may be absent, and the one switch that makes it
required.

A test whose dependency or data is missing skips, so that the README's test
command passes on a bare machine.  In CI that skip would hide a stage that
ran nothing: ``HAVHEX_REQUIRE=name,name,...`` (as .ci/run sets it for each
stage that installs a dependency or lays out data) turns the skip for each
named need into a failure.  Every "not available" skip in the suite goes
through ``missing``, ``module`` or ``shared`` (tests/packaging/test_needs.py checks).
"""
import importlib
import os
from pathlib import Path

import pytest

# ../shared beside the checkout: the contest data, the game records and the
# engines; absent for an installed wheel or an unpacked sdist.
SHARED = Path(__file__).resolve().parents[2].parent / "shared"

# What each folder of ../shared holds, for the reason of a skip: a reader of
# "not found" alone cannot tell what the folder is or where it comes from.
SHARED_FOLDERS = {
    "conformance": "the contests' own inputs and expected answers",
    "records": "real Havannah game records from Little Golem",
    "engines": "the source of third-party GTP engines (morat)",
}
# The section of docs/development.md that says what ../shared is.
SHARED_SECTION = "Data beside the checkout"

# The needs HAVHEX_REQUIRE may name: Python modules of the extras, the
# system's browser and compiler, and the folders of ../shared.
NAMES = frozenset({
    "numpy", "hypothesis", "mypy", "html5lib", "build", "openspiel", "dask", "pandas",
    "envpool", "gymnasium", "pettingzoo",
    "browser", "compiler", "conformance", "records", "engines",
})


def required():
    """The needs HAVHEX_REQUIRE names; an unknown name is a usage error, so
    that a typo in .ci/run cannot quietly require nothing."""
    names = {name.strip() for name in os.environ.get("HAVHEX_REQUIRE", "").split(",")}
    names.discard("")
    unknown = names - NAMES
    if unknown:
        raise pytest.UsageError(
            f"HAVHEX_REQUIRE: unknown need {', '.join(sorted(unknown))} "
            f"(known: {', '.join(sorted(NAMES))})")
    return names


def missing(need, why):
    """Skip the calling test (or module) because ``need`` is not available;
    fail it instead when HAVHEX_REQUIRE names ``need``."""
    if need not in NAMES:
        raise pytest.UsageError(f"needs.missing: unknown need {need!r}")
    if need in required():
        pytest.fail(f"HAVHEX_REQUIRE names {need}, which is not available: {why}",
                    pytrace=False)
    pytest.skip(why, allow_module_level=True)


def module(import_name, need=None):
    """Import and return ``import_name``; when it does not import, the test
    skips (or fails: see ``missing``) as lacking ``need``, by default the
    module's top-level name."""
    try:
        return importlib.import_module(import_name)
    except ImportError as error:
        missing(need or import_name.partition(".")[0],
                f"{import_name} does not import: {error}")


def shared(*parts, need):
    """The path ``../shared/<parts>``; when it does not exist, the test skips
    (or fails: see ``missing``) as lacking ``need``."""
    path = SHARED.joinpath(*parts)
    if not path.exists():
        what = SHARED_FOLDERS.get(parts[0], "data")
        missing(need, f"{'/'.join(('shared',) + parts)} beside the checkout not found ({path}): "
                      f"{what}, third-party data not in this repository "
                      f'(docs/development.md, "{SHARED_SECTION}")')
    return path
