"""The .pyi stubs describe the package as it runs: ``python -m mypy.stubtest
havhex`` (with the repository's allowlist) reports nothing."""
import os
import subprocess
import sys
from pathlib import Path

import pytest

import needs
import havhex

ALLOWLIST = Path(__file__).resolve().parents[2] / "stubtest-allowlist.txt"


def test_stubtest_reports_no_error(tmp_path):
    needs.module("mypy.stubtest", need="mypy")
    if not ALLOWLIST.is_file():
        pytest.skip(f"{ALLOWLIST.name} is not beside the tests (installed package)")
    # The havhex this suite imports (the source tree or an installed one),
    # checked from an empty folder that holds mypy's cache.
    package_parent = str(Path(havhex.__file__).resolve().parents[1])
    path = os.pathsep.join(filter(None, [package_parent, os.environ.get("PYTHONPATH")]))
    done = subprocess.run(
        [sys.executable, "-m", "mypy.stubtest", "havhex", "--allowlist", str(ALLOWLIST)],
        cwd=tmp_path, capture_output=True, text=True, timeout=600,
        env={**os.environ, "PYTHONPATH": path},
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Success: no issues found" in done.stdout, done.stdout
