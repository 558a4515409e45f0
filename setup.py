"""Declares the compiled extensions; all metadata lives in pyproject.toml.

Every ``.pyx`` under src/havhex becomes the extension named by its path
(src/havhex/hex/_judge.pyx -> havhex.hex._judge), so moving or adding a
kernel needs no edit here.  C headers are included by their path from src/
(``cdef extern from "havhex/_native/portable.h"``).
"""
import os
import shlex
import sys
import sysconfig
from pathlib import Path

from Cython.Build import cythonize
from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

SOURCE_ROOT = Path("src")
PACKAGE_ROOT = SOURCE_ROOT / "havhex"

KERNEL_DIRECTIVES = {
    "language_level": 3,
    "boundscheck": False,
    "wraparound": False,
    "cdivision": True,
    "initializedcheck": False,
}


def wants_debug_info():
    """Debug info only on request: a -g in the CFLAGS of the environment (as
    .ci/sanitizers sets for readable reports).  The interpreter's own build
    flags, which sysconfig hands to every extension, often carry -g (pyenv
    does), which makes a wheel six times larger for nobody's use."""
    flags = shlex.split(os.environ.get("CFLAGS", ""))
    return any(flag.startswith("-g") and flag != "-g0" for flag in flags)


def compile_args():
    if sys.platform == "win32":
        return []  # MSVC: setuptools' release flags (/Ox, no /Zi)
    args = ["-O3"] if wants_debug_info() else ["-O3", "-g0"]
    # Warnings as errors only on request (CI sets HAVHEX_WERROR=1): a user's
    # install must not fail because a newer compiler warns about more.  -Wall
    # too, as the interpreter's own flags need not carry it.
    if os.environ.get("HAVHEX_WERROR") == "1":
        args += ["-Wall", "-Werror"]
    return args


def link_args():
    # -s (strip the symbol table too) is for ELF linkers; Apple's ld warns.
    if sys.platform.startswith("linux") and not wants_debug_info():
        return ["-s"]
    return []


def interpreter_runpath_flags():
    """The ``-Wl,-rpath`` words of the interpreter's own link command."""
    words = shlex.split(sysconfig.get_config_var("LDSHARED") or "")
    flags = set()
    for word, following in zip(words, words[1:] + [""]):
        if word.startswith(("-Wl,-rpath", "-Wl,-R")):
            flags.add(word)
            if word in ("-Wl,-rpath", "-Wl,-R"):
                flags.add(following)  # the folder, given as a word of its own
    return flags


class BuildWithoutRunpath(build_ext):
    """Links without the interpreter's ``-Wl,-rpath`` flags.

    An interpreter configured with ``LDFLAGS=-Wl,-rpath,<its lib folder>``
    (pyenv's shared builds are) passes them to every extension through
    sysconfig's LDSHARED, so each .so would carry a RUNPATH naming a folder of
    the build machine.  The extensions do not link libpython, so the path
    serves nothing, and auditwheel keeps it in the repaired wheel.  An rpath
    given in the environment's LDFLAGS is left alone."""

    def build_extensions(self):
        linker = getattr(self.compiler, "linker_so", None)
        unwanted = interpreter_runpath_flags()
        if linker and unwanted:
            self.compiler.linker_so = [word for word in linker if word not in unwanted]
        super().build_extensions()


def headers():
    """The files an extension's C may depend on: any change rebuilds all."""
    return sorted(
        str(path) for pattern in ("*.pxd", "*.pxi", "*.h")
        for path in PACKAGE_ROOT.rglob(pattern)
    )


def extensions():
    found = []
    for source in sorted(PACKAGE_ROOT.rglob("*.pyx")):
        name = ".".join(source.relative_to(SOURCE_ROOT).with_suffix("").parts)
        found.append(Extension(
            name,
            [str(source)],
            depends=headers(),
            include_dirs=[str(SOURCE_ROOT)],
            extra_compile_args=compile_args(),
            extra_link_args=link_args(),
        ))
    return found


setup(
    ext_modules=cythonize(
        extensions(),
        compiler_directives=KERNEL_DIRECTIVES,
        include_path=[str(SOURCE_ROOT)],
    ),
    cmdclass={"build_ext": BuildWithoutRunpath},
)
