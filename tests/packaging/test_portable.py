"""The engines build beyond GCC on Linux: every platform-specific call goes
through havhex/_native/portable.h, and that header keeps its promises in both
of the forms a C compiler here can build."""
import re
import shlex
import shutil
import subprocess
import sysconfig
from pathlib import Path

import pytest

import needs
import havhex

PACKAGE = Path(havhex.__file__).resolve().parent
# The sources in the checkout beside the tests (the installed package has no
# .pyx), else beside the package.
SOURCES = Path(__file__).resolve().parents[2] / "src" / "havhex"
if not SOURCES.is_dir():
    SOURCES = PACKAGE
NATIVE = PACKAGE / "_native"
CHECK_PROGRAM = Path(__file__).resolve().parents[1] / "support" / "portable_check.c"

# Spellings of one compiler or one system (a GCC statement expression starts
# "({ "; an f-string's "({name}" is not one).  Only portable.h may use them,
# and lines.h inside its GCC/Clang-only SSSE3 block.
PLATFORM_SPECIFIC = re.compile(
    r"__atomic_\w+|__builtin_\w+|__sync_\w+|__thread\b|\(\{\s|\(\{$"
    r"|\bposix_memalign\b|\bmadvise\b|\bclock_gettime\b|\busleep\b|\bnanosleep\b"
    r"|<unistd\.h>|<poll\.h>|<sys/mman\.h>|\bposix\.\w+|\bioctl\b|\bpoll\(")


def _engine_sources():
    return sorted(path for pattern in ("*.pyx", "*.pxi", "*.pxd", "*.h")
                  for path in SOURCES.rglob(pattern) if path.name != "portable.h")


def test_platform_specific_calls_only_in_portable_h():
    sources = _engine_sources()
    if not any(path.suffix == ".pyx" for path in sources):
        pytest.skip("the engines' sources are neither in a checkout nor beside the package")
    found = []
    for path in sources:
        guarded = False
        for number, line in enumerate(path.read_text().splitlines(), 1):
            # lines.h's SSSE3 reader exists only for GCC/Clang on x86-64, with
            # a plain stand-in otherwise.
            if path.name == "lines.h" and line.startswith("#if defined(__x86_64__) && defined(__GNUC__)"):
                guarded = True
            elif path.name == "lines.h" and guarded and line.startswith("#else"):
                guarded = False
            match = PLATFORM_SPECIFIC.search(line)
            if match and not guarded:
                found.append(f"{path.relative_to(PACKAGE)}:{number}: {match.group(0)}")
    assert found == []


def _compiler():
    command = shlex.split(sysconfig.get_config_var("CC") or "")
    if not command or shutil.which(command[0]) is None:
        needs.missing("compiler", "no C compiler here")
    return command


@pytest.mark.not_under_sanitizers("the compiler would run under the preloaded ASan runtime")
@pytest.mark.parametrize("form", ["compiler builtins", "plain C11 and POSIX"])
def test_portable_h_keeps_its_promises(tmp_path, form):
    if not (NATIVE / "portable.h").is_file():
        pytest.fail("havhex/_native/portable.h is missing")
    if not CHECK_PROGRAM.is_file():
        pytest.skip("tests/support/portable_check.c is not here")
    program = tmp_path / "portable_check"
    command = _compiler() + [
        "-std=c11", "-O2", "-Wall", "-Wextra",
        "-I", str(PACKAGE.parent), "-I", sysconfig.get_paths()["include"],
        str(CHECK_PROGRAM), "-o", str(program),
    ]
    if form == "plain C11 and POSIX":
        command.append("-DHAVHEX_PLAIN_C")
    built = subprocess.run(command, capture_output=True, text=True)
    assert built.returncode == 0, built.stderr
    # The header and the check must build without a warning (the
    # interpreter's own headers may have theirs).
    ours = [line for line in built.stderr.splitlines()
            if "warning" in line and ("portable" in line or "lines.h" in line)]
    assert ours == []
    ran = subprocess.run([str(program)], capture_output=True, text=True, timeout=60)
    assert (ran.returncode, ran.stdout) == (0, "ok\n")
