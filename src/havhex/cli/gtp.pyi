from typing import Optional, Sequence

from .arguments import Arguments

__all__ = ["main", "run"]

def main(argv: Optional[Sequence[str]] = ...) -> int: ...
def run(options: Arguments) -> int: ...
