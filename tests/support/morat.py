"""morat (Hex and Havannah, ../shared/engines/morat) built once per test
session, for the tests that play against a real third-party engine.

``../shared`` is read-only, so the sources are copied into a cache folder
outside the repository first: ``HAVHEX_MORAT_DIR`` when set (a folder kept
between sessions, as .ci/run keeps it), else a folder of the session's
pytest temporary tree.  An existing build there is reused when both
binaries are present.  Without ../shared/engines the tests skip through
``needs`` (need "engines"); a failed build fails them with the compiler's
last lines.
"""
import os
import shutil
import subprocess
from pathlib import Path

import pytest

import needs

BINARIES = ("morat-hex", "morat-havannah")
# The compiler's last lines shown when the build fails.
_TAIL = 40


def build(cache_root):
    """The folder holding built morat binaries, building them under
    ``cache_root`` (or HAVHEX_MORAT_DIR) when they are not there yet."""
    source = needs.shared("engines", "morat", need="engines")
    target = Path(os.environ.get("HAVHEX_MORAT_DIR") or Path(cache_root) / "morat")
    if all((target / name).is_file() and os.access(target / name, os.X_OK)
           for name in BINARIES):
        return target
    if not (target / "Makefile").is_file():
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copytree(source, target, dirs_exist_ok=True,
                        ignore=shutil.ignore_patterns("*.o", *BINARIES))
    make = shutil.which("make")
    if make is None or shutil.which("g++") is None:
        needs.missing("compiler", "building morat needs make and g++")
    done = subprocess.run([make, "-C", str(target), "-j2", *BINARIES],
                          capture_output=True, text=True)
    if done.returncode != 0 or not all((target / name).is_file() for name in BINARIES):
        tail = "\n".join((done.stdout + done.stderr).splitlines()[-_TAIL:])
        pytest.fail(f"building morat in {target} failed (make exit {done.returncode}):\n{tail}",
                    pytrace=False)
    return target


class Morat:
    """The built binaries: ``hex`` and ``havannah`` paths, ``command(game)``
    their argv."""

    def __init__(self, folder):
        self.folder = Path(folder)
        self.hex = self.folder / "morat-hex"
        self.havannah = self.folder / "morat-havannah"

    def command(self, game):
        return [str(self.hex if game == "hex" else self.havannah)]
