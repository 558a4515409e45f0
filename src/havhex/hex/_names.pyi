from typing import Tuple

__all__ = ["CODE_LETTERS", "PLAYERS"]

PLAYERS: Tuple[str, str]
CODE_LETTERS: bytes
