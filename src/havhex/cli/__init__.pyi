from typing import Sequence

__all__ = ["main"]

def main(argv: Sequence[str] | None = ...) -> int: ...
