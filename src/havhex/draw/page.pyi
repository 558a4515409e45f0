from typing import Any, Dict, Iterable, List, Optional, Tuple, Union

from ..descriptor import Descriptor

__all__ = ["GameSteps", "game_steps", "position_svg", "game_page", "NOT_MOVES",
           "PAGE_HAVANNAH_CELLS_MAX", "PAGE_HEX_MAX"]

NOT_MOVES: Tuple[str, str, str]
PAGE_HAVANNAH_CELLS_MAX: int
PAGE_HEX_MAX: int

_Cell = Tuple[int, int]
_Size = Union[int, Tuple[int, int]]
_Change = Tuple[int, str]

def pictured(game: Union[str, Descriptor], cases: bool = ...) -> Descriptor: ...

class GameSteps:
    kind: str
    descriptor: Descriptor
    size: _Size
    cells: List[_Cell]
    index: Dict[_Cell, int]
    steps: List[Tuple[str, Tuple[_Change, ...]]]
    win: Optional[int]
    winner: Optional[str]
    answer: Optional[str]
    marks: Dict[int, str]
    winning_cell: Optional[int]
    under: List[str]
    over: List[str]
    illegal: Optional[Tuple[int, str]]
    heading: str
    start: Tuple[_Change, ...]
    ending: Optional[str]
    def __init__(self, kind: Union[str, Descriptor], size: _Size, cells: List[_Cell],
                 steps: List[Tuple[str, Tuple[_Change, ...]]], win: Optional[int],
                 winner: Optional[str], answer: Optional[str], marks: Dict[int, str],
                 winning_cell: Optional[int], under: List[str], over: List[str],
                 illegal: Optional[Tuple[int, str]], heading: str,
                 start: Iterable[_Change] = ..., ending: Optional[str] = ...) -> None: ...
    @property
    def players(self) -> Tuple[str, str]: ...
    def stones(self, move: int) -> List[str]: ...
    def numbers(self) -> List[Tuple[int, int, int, Optional[int]]]: ...
    def default_move(self) -> int: ...
    def summary(self) -> str: ...

def game_steps(kind: Union[str, Descriptor], size: _Size, moves: Iterable[Any], *,
               rule: str = ..., swap: bool = ..., board: Any = ...,
               setup: Iterable[Tuple[str, Tuple[int, int]]] = ...,
               heading: Optional[str] = ..., source: Optional[str] = ...) -> GameSteps: ...
def position_svg(game: GameSteps, move: Optional[int] = ...) -> str: ...
def game_page(game: GameSteps, move: Optional[int] = ...) -> str: ...
