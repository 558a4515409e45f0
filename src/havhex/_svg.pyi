from typing import Any, Callable, Iterable, List, Optional, Sequence, Tuple

__all__ = [
    "RADIUS", "SQRT3", "COMMON_STYLE", "fit_text", "escape", "script_json", "number", "points", "cell_pairs", "text_block",
    "legend_rows", "Layout", "document"
]

_Box = Tuple[float, float, float, float]

RADIUS: float
SQRT3: float
COMMON_STYLE: str

def fit_text(text: object) -> str: ...
def escape(text: object) -> str: ...
def script_json(value: object) -> str: ...
def number(value: float) -> str: ...
def points(pairs: Iterable[Tuple[float, float]]) -> str: ...
def cell_pairs(seq: Optional[Iterable[Sequence[Any]]]) -> List[Tuple[int, int]]: ...
def text_block(x: float, y: float, lines: Iterable[str], size: int = ..., cls: str = ...) -> List[str]: ...
def legend_rows(items: Iterable[Tuple[Callable[[float, float], str], Sequence[str]]],
                y0: float = ...) -> Tuple[List[str], float]: ...

class Layout:
    PAD: int
    LEGEND_W: int
    TITLE_H: float
    box: _Box
    scale: float
    board_w: float
    board_h: float
    width: float
    height: float
    legend_x: float
    def __init__(self, box: _Box, legend_h: float, subtitle_lines: Sequence[str] = ...,
                 board_px: float = ..., min_radius_px: float = ..., max_px: float = ...) -> None: ...
    def open_board(self) -> str: ...

def document(layout: Layout, title: str, subtitle_lines: Sequence[str], style: str,
             defs: Sequence[str], board: Sequence[str], legend: Sequence[str],
             desc: Optional[str] = ...) -> str: ...
