"""Declares the compiled extensions; all metadata lives in pyproject.toml."""
import sys
from pathlib import Path

from Cython.Build import cythonize
from setuptools import Extension, setup

COMPILE_ARGS = [] if sys.platform == "win32" else ["-O3"]

KERNEL_DIRECTIVES = {
    "language_level": 3,
    "boundscheck": False,
    "wraparound": False,
    "cdivision": True,
    "initializedcheck": False,
}


# The parts every extension may include or cimport (headers, .pxd, .pxi).
SHARED = sorted(str(p) for pattern in ("*.h", "*.pxd", "*.pxi")
                for p in Path("src/havhex").rglob(pattern))


def extension(name):
    """``havhex.havannah._judge`` from ``src/havhex/havannah/_judge.pyx``."""
    return Extension(
        f"havhex.{name}",
        [f"src/havhex/{name.replace('.', '/')}.pyx"],
        depends=SHARED,
        include_dirs=["src"],
        extra_compile_args=COMPILE_ARGS,
    )


setup(
    ext_modules=cythonize(
        [extension("havannah._judge"), extension("havannah._rings"), extension("havannah._board"),
         extension("hex._judge"), extension("hex._board")],
        compiler_directives=KERNEL_DIRECTIVES,
        include_path=["src"],
    ),
)
