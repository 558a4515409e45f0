"""The extensions build without a compiler warning: CI builds them with
warnings as errors.  ``HAVHEX_WERROR=1`` makes setup.py add ``-Wall -Werror``,
and every build of the package in .ci/run and .ci/sanitizers sets it, so a
warning fails the run there.  A build of the extensions here would cost a
minute or more of CPU for what those builds check anyway; these tests check,
cheaply, that the request reaches the compiler's flags and every build."""
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SETUP = ROOT / "setup.py"
CI = ROOT / ".ci"

# Runs setup.py with setuptools' and Cython's entry points replaced by stubs
# (neither need be installed where the tests run, and nothing is compiled)
# and prints each extension's extra compile arguments.
STUBBED_SETUP = r"""
import json, os, runpy, sys, types

class Extension:
    def __init__(self, name, sources, **options):
        self.name, self.options = name, options

found = {}
def setup(ext_modules, **options):
    for extension in ext_modules:
        found[extension.name] = extension.options.get("extra_compile_args", [])

modules = {name: types.ModuleType(name) for name in (
    "setuptools", "setuptools.command", "setuptools.command.build_ext",
    "Cython", "Cython.Build")}
modules["setuptools"].Extension = Extension
modules["setuptools"].setup = setup
modules["setuptools.command.build_ext"].build_ext = object
modules["Cython.Build"].cythonize = lambda extensions, **options: extensions
sys.modules.update(modules)
os.chdir(sys.argv[1])
runpy.run_path("setup.py", run_name="__main__")
print(json.dumps(found))
"""


def compile_args(werror):
    if not SETUP.is_file():
        pytest.skip("setup.py is not beside the tests (installed package)")
    environment = {name: value for name, value in os.environ.items() if name != "HAVHEX_WERROR"}
    if werror is not None:
        environment["HAVHEX_WERROR"] = werror
    done = subprocess.run([sys.executable, "-c", STUBBED_SETUP, str(ROOT)], env=environment,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    found = json.loads(done.stdout)
    assert "havhex.havannah._board" in found and "havhex.hex._judge" in found, found
    return found


@pytest.mark.skipif(sys.platform == "win32", reason="MSVC's build takes no -Werror")
def test_setup_py_asks_for_warnings_as_errors_only_on_request():
    for name, args in compile_args("1").items():
        assert "-Werror" in args and "-Wall" in args, (name, args)
    # A user's install: a newer compiler's new warning must not fail it.
    for werror in (None, "", "0"):
        for name, args in compile_args(werror).items():
            assert "-Werror" not in args, (werror, name, args)


def commands(path):
    """The lines of a shell script without its comments, a command continued
    with a backslash joined into one line."""
    text = re.sub(r"\\\n", " ", path.read_text(encoding="utf-8"))
    return [line for line in text.splitlines() if line.strip() and not line.lstrip().startswith("#")]


def test_every_build_in_ci_asks_for_warnings_as_errors():
    if not (CI / "run").is_file():
        pytest.skip(".ci is not beside the tests (installed package)")
    run = commands(CI / "run")
    exports = [number for number, line in enumerate(run)
               if line.strip() == "export HAVHEX_WERROR=1"]
    assert len(exports) == 1, "no 'export HAVHEX_WERROR=1' in .ci/run"
    # Nothing else sets the variable or runs a build without the environment.
    assert [line for line in run if "HAVHEX_WERROR" in line or "env -i" in line] == [
        run[exports[0]]]
    builds = {
        "the README's install": r'pip install "\.\[test\]"',
        "the sdist": r"python -m build --sdist .* \.",
        "the install from the sdist": r'pip install .*"\$sdist\[test\]"',
        "the wheel": r"pip wheel .* \.$",
        "the sanitized build": r"(^|\s)\.ci/sanitizers\b",
    }
    for build, pattern in builds.items():
        lines = [number for number, line in enumerate(run) if re.search(pattern, line)]
        assert lines, f".ci/run: {build} not found"
        assert min(lines) > exports[0], f".ci/run: {build} comes before the export"
    # .ci/sanitizers also runs alone: its build asks by itself.
    sanitized = [line for line in commands(CI / "sanitizers") if re.search(r"pip install .*\.\[test\]", line)]
    assert len(sanitized) == 1, sanitized
    assert re.search(r"(^|\s)HAVHEX_WERROR=1\s.*-m pip install", sanitized[0]), sanitized[0]
