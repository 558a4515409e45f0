import os
from typing import Any, Callable, Iterator, Mapping, Optional, Tuple, Union

__all__ = ["Game", "read", "read_bytes", "implied_game", "EXTENSIONS", "MAX_CELLS",
           "NOTATIONS"]

MAX_CELLS: int
PIECE_BYTES: int

NOTATIONS: Tuple[str, ...]
# Computed from the registry when asked for; GAMES, HEX_GM and
# HEX_DEFAULT_SIZE warn (DeprecationWarning): havhex.games says them.
GAMES: Tuple[str, ...]
EXTENSIONS: Mapping[str, str]
HEX_GM: bytes
HEX_DEFAULT_SIZE: int
SPECIAL: Mapping[int, str]
CELL: int
OFF_BOARD: int
UNREADABLE: int

_Source = Union[str, bytes, bytearray, memoryview, "os.PathLike[str]"]
_Cell = Tuple[int, int]
_Move = Tuple[str, Union[_Cell, str]]

class Game:
    source: str
    index: int
    line: int
    kind: str
    size: Union[int, Tuple[int, int]]
    @property
    def properties(self) -> dict[str, Tuple[str, ...]]: ...
    @property
    def moves(self) -> Tuple[_Move, ...]: ...
    @property
    def setup(self) -> Tuple[Tuple[str, _Cell], ...]: ...
    @property
    def result(self) -> Optional[str]: ...
    @property
    def is_little_golem(self) -> bool: ...
    @property
    def recorded(self) -> Optional[str]: ...
    def board(self, rule: str = ...) -> Any: ...
    def __eq__(self, other: object) -> bool: ...
    def __hash__(self) -> int: ...
    def __reduce__(self) -> Tuple[Any, ...]: ...

def read_bytes(data: Union[bytes, bytearray, memoryview], source: str = ..., game: Optional[str] = ...,
               first_index: int = ..., first_line: int = ..., max_cells: Optional[int] = ...,
               at_start: Optional[bool] = ...) -> Iterator[Game]: ...
def load(source: _Source) -> Tuple[bytes, str]: ...
def read(source: _Source, game: Optional[str] = ...,
         max_cells: Optional[int] = ...) -> Iterator[Game]: ...
def cells_of(kind: str, size: Union[int, Tuple[int, int]]) -> int: ...
def too_many_cells(kind: str, size: Union[int, Tuple[int, int]], declared: Optional[bytes],
                   max_cells: int) -> str: ...
def implied_game(name: Union[str, bytes, "os.PathLike[str]", "os.PathLike[bytes]"]) -> Optional[str]: ...
def shown_name(name: str) -> str: ...
