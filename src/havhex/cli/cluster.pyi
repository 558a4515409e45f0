from typing import Iterator, Optional

from .arguments import Arguments
from .replay import Summary

__all__ = ["cli_outputs"]

def cli_outputs(arguments: Arguments, summary: Optional[Summary] = ...) -> Iterator[Iterator[str]]: ...
