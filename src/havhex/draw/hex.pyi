from typing import Any, Mapping, Optional, Sequence, Union

from ..hex import Explanation

__all__ = ["hex_svg", "hex_text", "HEX_TEXT_MAX", "HEX_SVG_MAX"]

HEX_TEXT_MAX: int
HEX_SVG_MAX: int

def hex_svg(rows: Sequence[str], explanation: Union[Explanation, Mapping[str, Any]], *,
            heading: Optional[str] = ...) -> str: ...
def hex_text(rows: Sequence[str], explanation: Union[Explanation, Mapping[str, Any]], *,
             heading: Optional[str] = ...) -> str: ...
