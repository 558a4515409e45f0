"""The package as an index shows it: license, no address of nowhere,
classifiers, one version, and compiled modules without debug info or a
RUNPATH of the build machine."""
import importlib.machinery
import importlib.metadata
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import havhex

ROOT = Path(__file__).resolve().parents[2]
PYPROJECT = ROOT / "pyproject.toml"


@pytest.fixture(scope="module")
def project():
    if sys.version_info < (3, 11):
        pytest.skip("reads pyproject.toml with tomllib, which is Python 3.11+")
    import tomllib

    if not PYPROJECT.is_file():
        pytest.skip("pyproject.toml is not beside the tests (installed package)")
    return tomllib.loads(PYPROJECT.read_text())


def test_license_is_bsd_3_clause_with_its_text(project):
    assert project["project"]["license"] == "BSD-3-Clause"
    assert project["project"]["license-files"] == ["LICENSE"]
    text = (ROOT / "LICENSE").read_text()
    assert text.startswith("BSD 3-Clause License\n")
    assert "havhex developers" in text.splitlines()[2]
    # The expression says it: setuptools refuses a license classifier beside it.
    assert not [c for c in project["project"]["classifiers"] if c.startswith("License ::")]


def test_project_names_no_address(project):
    # The project has no public repository or site: an address in the
    # metadata would send an index's readers nowhere.
    assert "urls" not in project["project"], project["project"].get("urls")


def test_classifiers_name_every_supported_python_and_system(project):
    classifiers = set(project["project"]["classifiers"])
    low = int(re.fullmatch(r">=3\.(\d+)", project["project"]["requires-python"]).group(1))
    versions = {f"Programming Language :: Python :: 3.{minor}" for minor in range(low, 14)}
    assert low == 9
    assert versions <= classifiers
    assert {
        "Development Status :: 4 - Beta",
        "Operating System :: OS Independent",
        "Operating System :: POSIX",
        "Operating System :: Microsoft :: Windows",
        "Operating System :: MacOS",
        "Programming Language :: Cython",
        "Typing :: Typed",
    } <= classifiers


def test_version_is_written_once(project):
    assert "version" not in project["project"]
    assert "version" in project["project"]["dynamic"]
    attr = project["tool"]["setuptools"]["dynamic"]["version"]["attr"]
    assert attr == "havhex._version.__version__"
    # No other file of the sources states the version.
    stated = re.escape(havhex.__version__)
    # Sources only: a checkout that has been run holds compiled bytecode too.
    sources = [path for path in (ROOT / "src").rglob("*")
               if path.suffix in (".py", ".pyi", ".pyx", ".pxd", ".pxi")]
    others = [path for path in sources
              if path.name != "_version.py" and re.search(rf"['\"]{stated}['\"]", path.read_text())]
    assert others == []


def test_installed_metadata_has_the_package_version():
    try:
        installed = importlib.metadata.version("havhex")
    except importlib.metadata.PackageNotFoundError:
        pytest.skip("havhex is imported from the sources, not installed")
    if not Path(havhex.__file__).resolve().is_relative_to(Path(sys.prefix).resolve()):
        pytest.skip("the havhex imported is not the installed one")
    assert installed == havhex.__version__


def _compiled_modules():
    package = Path(havhex.__file__).parent
    suffixes = tuple(importlib.machinery.EXTENSION_SUFFIXES)
    return sorted(path for path in package.rglob("*") if path.name.endswith(suffixes))


@pytest.mark.not_under_sanitizers("that build keeps debug info on purpose (CFLAGS=-g)")
def test_compiled_modules_carry_no_debug_info_and_no_runpath():
    """The interpreter's build flags (pyenv's -g, -Wl,-rpath) must not reach
    the extensions: setup.py drops debug info and the interpreter's rpath."""
    readelf = shutil.which("readelf")
    modules = _compiled_modules()
    assert modules
    if readelf is None or open(modules[0], "rb").read(4) != b"\x7fELF":
        pytest.skip("needs ELF modules and readelf")
    for module in modules:
        sections = subprocess.run([readelf, "-S", "-W", str(module)], capture_output=True,
                                  text=True, check=True).stdout
        dynamic = subprocess.run([readelf, "-d", "-W", str(module)], capture_output=True,
                                 text=True, check=True).stdout
        assert ".debug_info" not in sections, module
        assert "(RUNPATH)" not in dynamic and "(RPATH)" not in dynamic, module
