import os
from typing import Any, Iterable, Literal, Mapping, Optional, Sequence, Tuple, Union

from ..descriptor import Descriptor
from .._explanation import Explanation

from .page import game_page as game_page, game_steps as game_steps, position_svg as position_svg

__all__ = [
    "draw_command", "draw_record", "game_steps", "game_page", "position_svg", "havannah_svg", "havannah_text", "hex_svg", "hex_text",
    "HAVANNAH_TEXT_MAX", "HAVANNAH_SVG_STONES_MAX", "HEX_TEXT_MAX", "HEX_SVG_MAX",
    "HAVANNAH_EDGES",
]

_FileArg = Union[str, bytes, "os.PathLike[str]", "os.PathLike[bytes]"]
# An Explanation of the game, or its to_dict() record.
_Witness = Union[Explanation, Mapping[str, Any]]

HAVANNAH_TEXT_MAX: int
HAVANNAH_SVG_STONES_MAX: int
HEX_TEXT_MAX: int
HEX_SVG_MAX: int
HAVANNAH_EDGES: Tuple[str, str, str, str, str, str]

def draw_command(game: Union[str, Descriptor], file: _FileArg, case: int,
                 as_text: bool = ...) -> str: ...
def havannah_svg(size: int, moves: Iterable[Sequence[int]], explanation: _Witness, *,
                 heading: Optional[str] = ..., total_moves: Optional[int] = ...,
                 others: Iterable[Sequence[int]] = ...,
                 last_move: Optional[Sequence[int]] = ...) -> str: ...
def havannah_text(size: int, moves: Iterable[Sequence[int]], explanation: _Witness, *,
                  heading: Optional[str] = ...) -> str: ...
def hex_svg(rows: Sequence[str], explanation: _Witness, *,
            heading: Optional[str] = ..., last_move: Optional[Sequence[int]] = ...) -> str: ...
def hex_text(rows: Sequence[str], explanation: _Witness, *,
             heading: Optional[str] = ...) -> str: ...
def draw_record(file: _FileArg, game: int = ..., move: Optional[int] = ..., html: bool = ...,
                rule: Literal["official", "contest"] = ..., kind: Optional[str] = ...,
                max_cells: Optional[int] = ...) -> str: ...
