
from .arguments import Arguments

__all__ = ["run"]

def run(options: Arguments) -> int: ...
