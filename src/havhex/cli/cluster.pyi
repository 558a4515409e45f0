from typing import Iterator, Optional

from ..records.run import Summary
from .arguments import Arguments

__all__ = ["cli_outputs"]

def cli_outputs(arguments: Arguments, summary: Optional[Summary] = ...) -> Iterator[Iterator[str]]: ...
