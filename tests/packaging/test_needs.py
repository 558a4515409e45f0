"""Every "not available" skip goes through tests/support/needs.py, so that
HAVHEX_REQUIRE (set by .ci/run for each stage that installs a dependency or
lays out data) turns it into a failure: a stage that ran nothing must not
pass.  Checked here two ways: no test or benchmark skips for a missing
dependency or data by itself, and HAVHEX_REQUIRE does what it says."""
import ast
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

import needs

ROOT = Path(__file__).resolve().parents[2]
SUPPORT = Path(needs.__file__).resolve().parent
# A skip's reason that speaks of a dependency or of data: such a skip belongs
# in needs.py.  (Skips for the platform, the CPU or the layout of an
# installed package stay where they are.)
DEPENDENCY = re.compile(
    r"\bis not installed|not found|not available|absent|does not import|pip install|"
    r"chromium|browser|compiler|\bgcc\b|openspiel|pyspiel|numpy|hypothesis|\bdask\b|"
    r"distributed|pandas|mypy|html5lib|little golem|game records|conformance|\.\./shared",
    re.IGNORECASE)
SKIPS = {"skip", "skipif", "importorskip"}


def python_files():
    for folder in ("tests", "bench"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            if path != SUPPORT / "needs.py":
                yield path


def skips_of(path):
    """(line, what, source) of each importorskip, skip and skipif in ``path``."""
    text = path.read_text(encoding="utf-8")
    for node in ast.walk(ast.parse(text, str(path))):
        if isinstance(node, ast.Attribute) and node.attr in SKIPS:
            yield node.lineno, node.attr, ast.get_source_segment(text, node)
        if isinstance(node, ast.Call):
            name = getattr(node.func, "attr", getattr(node.func, "id", None))
            if name in SKIPS:
                yield node.lineno, name, ast.get_source_segment(text, node)


def test_no_skip_for_a_missing_dependency_outside_needs():
    if not (ROOT / "tests").is_dir():
        pytest.fail(f"the tests are not at {ROOT / 'tests'}")
    found = []
    for path in python_files():
        if path == Path(__file__).resolve():
            continue
        for line, what, source in skips_of(path):
            where = f"{path.relative_to(ROOT)}:{line}"
            if what == "importorskip":
                found.append(f"{where}: importorskip (use needs.module)")
            elif source and DEPENDENCY.search(source):
                found.append(f"{where}: {source.splitlines()[0]} (use needs.missing, "
                             "needs.module or needs.shared)")
    assert sorted(set(found)) == []


def test_the_old_browser_switch_is_gone():
    # HAVHEX_REQUIRE=browser replaces it; a stage setting the old name would
    # require nothing.
    places = [ROOT / ".ci" / "run", *python_files()]
    left = [str(path.relative_to(ROOT)) for path in places
            if path.is_file() and path != Path(__file__).resolve()
            and "HAVHEX_BROWSER_REQUIRED" in path.read_text(encoding="utf-8")]
    assert left == []


def test_the_checker_sees_a_bare_skip(tmp_path):
    # The check above can fail: each form it looks for is found.
    path = tmp_path / "test_bare.py"
    path.write_text(
        "import pytest\n"
        "np = pytest.importorskip('numpy')\n"
        "mark = pytest.mark.skipif(True, reason='OpenSpiel is not installed')\n"
        "def test_x():\n"
        "    pytest.skip('game records not found at ../shared/records')\n"
        "def test_y():\n"
        "    pytest.skip('no /dev/full here')\n")
    found = [(line, what) for line, what, source in skips_of(path)
             if what == "importorskip" or DEPENDENCY.search(source or "")]
    assert (2, "importorskip") in found and (3, "skipif") in found and (5, "skip") in found
    assert all(line != 7 for line, _ in found)


TINY = '''
import needs

def test_module():
    needs.module("havhex_no_such_module", need="numpy")

def test_missing():
    needs.missing("browser", "no Chromium here")

def test_shared():
    needs.shared("havhex-no-such-folder", need="records")

def test_present():
    assert needs.module("json").dumps(1) == "1"
'''


def test_the_skip_for_missing_shared_data_says_what_it_is(monkeypatch):
    monkeypatch.delenv("HAVHEX_REQUIRE", raising=False)
    with pytest.raises(pytest.skip.Exception) as skipped:
        needs.shared("records", "havhex-no-such-folder", need="records")
    reason = str(skipped.value)
    assert "shared/records/havhex-no-such-folder beside the checkout not found" in reason, reason
    assert needs.SHARED_FOLDERS["records"] in reason, reason
    assert f'docs/development.md, "{needs.SHARED_SECTION}"' in reason, reason
    page = ROOT / "docs" / "development.md"
    if page.is_file():
        text = page.read_text(encoding="utf-8")
        assert f"\n## {needs.SHARED_SECTION}\n" in text
        # The section names each folder the suite reads, and what it holds.
        for folder in needs.SHARED_FOLDERS:
            assert f"`shared/{folder}/" in text, folder


def test_every_shared_folder_the_suite_reads_is_described():
    calls = []
    for folder in ("tests", "bench"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            calls += re.findall(r'needs\.shared\("([\w-]+)"', path.read_text(encoding="utf-8"))
    read = set(calls) - {"havhex-no-such-folder"}
    assert {"conformance", "records", "engines"} <= read, read
    assert read <= set(needs.SHARED_FOLDERS), sorted(read - set(needs.SHARED_FOLDERS))


def run_tiny(tmp_path, require=None, source=TINY):
    (tmp_path / "pytest.ini").write_text("[pytest]\n")
    (tmp_path / "test_tiny.py").write_text(source)
    env = {k: v for k, v in os.environ.items() if k != "HAVHEX_REQUIRE"}
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(SUPPORT), env.get("PYTHONPATH")]))
    if require is not None:
        env["HAVHEX_REQUIRE"] = require
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-rfs", "-p", "no:cacheprovider",
                           "test_tiny.py"], cwd=tmp_path, env=env, capture_output=True,
                          text=True, timeout=120)
    return done.returncode, done.stdout + done.stderr


def test_without_havhex_require_a_missing_need_skips(tmp_path):
    status, out = run_tiny(tmp_path)
    assert status == 0, out
    assert "1 passed, 3 skipped" in out, out


@pytest.mark.parametrize("require, failed", [
    ("numpy", ["test_module"]),
    ("browser", ["test_missing"]),
    ("records", ["test_shared"]),
    (" numpy , records,browser", ["test_module", "test_missing", "test_shared"]),
    ("openspiel,dask", []),
])
def test_havhex_require_turns_the_skip_into_a_failure(tmp_path, require, failed):
    status, out = run_tiny(tmp_path, require)
    assert status == (1 if failed else 0), out
    for name in ("test_module", "test_missing", "test_shared"):
        assert (f"FAILED test_tiny.py::{name}" in out) == (name in failed), out
    if failed:
        assert "HAVHEX_REQUIRE names" in out


def test_a_module_level_skip_fails_the_collection(tmp_path):
    # As the OpenSpiel tests skip: at import, for the whole file.
    source = 'import needs\npyspiel = needs.module("havhex_no_such_module", need="openspiel")\n' \
             "def test_x():\n    pass\n"
    status, out = run_tiny(tmp_path, None, source)
    # (5: pytest's "no tests ran", as for a file skipped whole.)
    assert status in (0, 5) and "1 skipped" in out, out
    status, out = run_tiny(tmp_path, "openspiel", source)
    assert status != 0 and "HAVHEX_REQUIRE names openspiel" in out, out


def test_an_unknown_need_is_a_usage_error(tmp_path):
    status, out = run_tiny(tmp_path, "openspeil")
    assert status != 0 and "unknown need openspeil" in out, out
