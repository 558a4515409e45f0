"""A module's types are written once: a plain ``.py`` module of a converted
package carries its annotations inline, and no ``.pyi`` stub stands beside
it (a stub beside a ``.py`` hides the module's own annotations from type
checkers, and the two drift apart).  Stubs stay for the compiled modules
(``.pyx``), whose types a checker cannot read from the source.  Those
annotations stay complete: ``python -m mypy --strict -p havhex`` reports
nothing.

Every package of src/havhex, and the modules of src/havhex itself, are so
(issue 35 converted them); a new package is checked from the tree."""
import os
import subprocess
import sys
from pathlib import Path

import pytest

import needs
import havhex

PACKAGE = Path(havhex.__file__).resolve().parent

# Every subpackage of havhex (their subpackages included).
CONVERTED = tuple(sorted(path.name for path in PACKAGE.iterdir()
                         if (path / "__init__.py").is_file()))
# Modules that keep a stub beside their .py for a while, each with the
# reason, as paths inside src/havhex: none.
NOT_YET = {}


def _stubbed_modules(folder):
    """The .py modules under ``folder`` that have a .pyi beside them, as
    paths inside src/havhex."""
    return sorted(path.relative_to(PACKAGE).as_posix() for path in folder.rglob("*.py")
                  if path.with_suffix(".pyi").exists())


@pytest.mark.parametrize("package", CONVERTED)
def test_converted_package_has_no_stub_beside_a_module(package):
    folder = PACKAGE / package
    # A name that is not a package of havhex would check nothing.
    assert (folder / "__init__.py").is_file(), f"havhex.{package} is not a package"
    stubbed = [module for module in _stubbed_modules(folder) if module not in NOT_YET]
    assert stubbed == [], (f"{', '.join(stubbed)}: a .pyi beside a .py module of a "
                           f"converted package; annotate the module inline and remove "
                           f"the stub")


def test_root_module_has_no_stub_beside_it():
    # The modules of src/havhex itself are converted too (its subpackages
    # are CONVERTED's): a stub stays only beside a compiled module (.pyx).
    stubbed = [path.name for path in sorted(PACKAGE.glob("*.py"))
               if path.with_suffix(".pyi").exists() and path.name not in NOT_YET]
    assert stubbed == [], (f"{', '.join(stubbed)}: a .pyi beside a .py module of havhex; "
                           f"annotate the module inline and remove the stub")


def _compiled(stub):
    """True when ``stub`` stands beside a compiled module: its source (in a
    checkout) or its extension (in an installed package, which ships no
    .pyx)."""
    return (stub.with_suffix(".pyx").exists()
            or any(stub.parent.glob(f"{stub.stem}.*.so"))
            or any(stub.parent.glob(f"{stub.stem}.*.pyd")))


@pytest.mark.parametrize("package", CONVERTED)
def test_converted_package_keeps_stubs_of_compiled_modules_only(package):
    # A stub beside a compiled module (.pyx) is its types; one beside
    # neither that nor a module waiting in NOT_YET describes nothing.
    stray = sorted(module for module in (path.relative_to(PACKAGE).as_posix()
                                         for path in (PACKAGE / package).rglob("*.pyi")
                                         if not _compiled(path))
                   if module[:-1] not in NOT_YET)
    assert stray == [], f"{', '.join(stray)}: a .pyi beside no compiled module"


def test_every_package_is_checked():
    # The tree's packages, found: a new one cannot go unchecked.
    assert {"cli", "havannah", "hex", "records"} <= set(CONVERTED), CONVERTED


def test_mypy_strict_reports_no_error(tmp_path):
    needs.module("mypy", need="mypy")
    # The havhex this suite imports (the source tree or an installed one),
    # checked from an empty folder that holds mypy's cache, as the stubs
    # are (test_stubs.py): a cache shared with another checkout could
    # answer for that checkout's files.
    path = os.pathsep.join(filter(None, [str(PACKAGE.parent), os.environ.get("PYTHONPATH")]))
    done = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "-p", "havhex"],
        cwd=tmp_path, capture_output=True, text=True, timeout=600,
        env={**os.environ, "PYTHONPATH": path},
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Success: no issues found" in done.stdout, done.stdout
