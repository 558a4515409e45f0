from typing import Tuple

__all__ = ["KINDS", "PLAYERS"]

PLAYERS: Tuple[str, str]
KINDS: Tuple[str, str, str]
