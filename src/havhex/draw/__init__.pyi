import os
from typing import Any, Iterable, Literal, Mapping, Optional, Sequence, Tuple, Union

from .hex import Explanation

Cell = Tuple[int, int]
FileArg = Union[str, bytes, "os.PathLike[str]", "os.PathLike[bytes]"]

HAVANNAH_TEXT_MAX: int
HAVANNAH_SVG_STONES_MAX: int
HEX_TEXT_MAX: int
HEX_SVG_MAX: int
HAVANNAH_EDGES: Tuple[str, str, str, str, str, str]

def draw_command(game: Literal["havannah", "hex"], file: FileArg, case: int,
                 as_text: bool = ...) -> str: ...
def havannah_svg(size: int, moves: Iterable[Sequence[int]], explanation: Mapping[str, Any], *,
                 heading: Optional[str] = ..., total_moves: Optional[int] = ...) -> str: ...
def havannah_text(size: int, moves: Iterable[Sequence[int]], explanation: Mapping[str, Any], *,
                  heading: Optional[str] = ...) -> str: ...
def hex_svg(rows: Sequence[str], explanation: Union[Explanation, Mapping[str, Any]], *,
            heading: Optional[str] = ...) -> str: ...
def hex_text(rows: Sequence[str], explanation: Union[Explanation, Mapping[str, Any]], *,
             heading: Optional[str] = ...) -> str: ...
