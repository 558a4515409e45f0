"""The sdist holds what its tests, benchmarks, examples and documentation
read: every file the repository tracks but its GitHub workflows (.github).  An sdist built from this checkout is compared with
``git ls-files``; .ci/run then runs the tests from the unpacked sdist."""
import subprocess
import sys
import tarfile
from pathlib import Path

import pytest

import needs

ROOT = Path(__file__).resolve().parents[2]
# Tracked files an sdist leaves out: they serve the repository, not a build or
# a test.
NOT_SHIPPED_PREFIXES = (".github/",)


def tracked_files():
    """The files git tracks here, or None outside a checkout (an unpacked
    sdist, an installed package)."""
    if not (ROOT / ".git").exists():
        return None
    try:
        done = subprocess.run(["git", "-C", str(ROOT), "ls-files", "-z"], capture_output=True,
                              timeout=60)
    except FileNotFoundError:
        return None
    if done.returncode != 0:
        return None
    return {name for name in done.stdout.decode("utf-8", "surrogateescape").split("\0") if name}


def build_sdist(folder):
    """Build the sdist of this checkout into ``folder`` (pypa's build: in an
    isolated environment, as an index would get it, unless the build's
    requirements are installed here already)."""
    needs.module("build")
    command = [sys.executable, "-m", "build", "--sdist", "--outdir", str(folder), str(ROOT)]
    try:
        import Cython  # noqa: F401
        import setuptools

        if int(setuptools.__version__.split(".")[0]) >= 77:
            command.insert(4, "--no-isolation")
    except ImportError:
        pass
    done = subprocess.run(command, capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    built = sorted(folder.glob("havhex-*.tar.gz"))
    assert len(built) == 1, built
    return built[0]


def shipped(tracked):
    return {name for name in tracked if not name.startswith(NOT_SHIPPED_PREFIXES)}


def test_the_sdist_holds_every_tracked_file_its_tests_and_docs_need(tmp_path):
    tracked = tracked_files()
    if tracked is None:
        pytest.skip(f"{ROOT} is not a git checkout (an unpacked sdist or an installed package)")
    # The new user's case of issue 23: an example the tests read.
    assert "examples/hex-games.sgf" in tracked
    sdist = build_sdist(tmp_path)
    with tarfile.open(sdist) as archive:
        members = {member.name.split("/", 1)[1] for member in archive.getmembers()
                   if member.isfile() and "/" in member.name}
    assert sorted(shipped(tracked) - members) == []
    # Nothing built or cached rides along.
    assert [name for name in members
            if name.endswith((".so", ".pyd", ".pyc", ".o")) or "__pycache__" in name] == []


def test_what_stays_out_is_the_repositorys_own():
    # The list above cannot hide a file the tests read: each entry is one
    # the tests, the docs and the build never open.
    tracked = tracked_files()
    if tracked is None:
        pytest.skip(f"{ROOT} is not a git checkout (an unpacked sdist or an installed package)")
    left_out = sorted(tracked - shipped(tracked))
    assert left_out and all(name.startswith(".github/") for name in left_out), left_out
