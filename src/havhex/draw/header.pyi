import os
from typing import Optional, Tuple, Union

from ..descriptor import Descriptor

__all__ = ["Tokens", "case_header"]

class Tokens:
    CHUNK: int
    longest: int
    def __init__(self, descriptor: int, offset: int, longest: Optional[int] = ...) -> None: ...
    def word(self) -> Optional[bytes]: ...
    def number(self) -> Optional[int]: ...
    def skip(self, count: int) -> bool: ...

def case_header(file: Union[str, bytes, os.PathLike[str], os.PathLike[bytes]],
                game: Union[str, Descriptor], case: int) -> Optional[Tuple[int, ...]]: ...
