from typing import Any, Iterable, Mapping, Optional, Sequence, Tuple

__all__ = [
    "havannah_svg", "havannah_text", "HAVANNAH_TEXT_MAX", "HAVANNAH_SVG_STONES_MAX",
    "HAVANNAH_EDGES"
]

HAVANNAH_TEXT_MAX: int
HAVANNAH_SVG_STONES_MAX: int
HAVANNAH_EDGES: Tuple[str, str, str, str, str, str]

def havannah_svg(size: int, moves: Iterable[Sequence[int]], explanation: Mapping[str, Any], *,
                 heading: Optional[str] = ..., total_moves: Optional[int] = ...) -> str: ...
def havannah_text(size: int, moves: Iterable[Sequence[int]], explanation: Mapping[str, Any], *,
                  heading: Optional[str] = ...) -> str: ...
