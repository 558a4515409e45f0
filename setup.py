"""Declares the compiled extensions; all metadata lives in pyproject.toml."""
import sys

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


def extension(name, depends=()):
    return Extension(
        f"havhex.{name}",
        [f"src/havhex/{name}.pyx"],
        depends=[f"src/havhex/{header}" for header in depends],
        extra_compile_args=COMPILE_ARGS,
    )


setup(
    ext_modules=cythonize(
        [extension("_havannah", depends=["_lines.h"]), extension("_hex", depends=["_lines.h"])],
        compiler_directives=KERNEL_DIRECTIVES,
        include_path=["src"],
    ),
)
