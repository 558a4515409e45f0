
from .arguments import Arguments

__all__ = ["run"]

PROGRAM: str

def run(arguments: Arguments) -> int: ...
