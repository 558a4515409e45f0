from typing import Sequence

from .arguments import Arguments

__all__ = ["main", "run"]

PROGRAM: str

def main(argv: Sequence[str]) -> int: ...
def run(arguments: Arguments) -> int: ...
