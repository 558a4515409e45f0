from typing import Any, Callable, Dict, IO, Iterable, List, Mapping, Optional, Tuple, Union

__all__ = ["Engine", "COLOURS", "GAMES", "COMMANDS", "MAX_HEX_SIDE", "MAX_HAVANNAH_SIZE"]

GAMES: Tuple[str, ...]
COLOURS: Mapping[str, Mapping[str, Tuple[str, str]]]
COMMANDS: Mapping[str, Tuple[str, ...]]
DEFAULT_SIZE: Mapping[str, int]
MAX_HEX_SIDE: int
MAX_HAVANNAH_SIZE: int
SIZE_LIMITS: dict[str, tuple[int, int]]
SWAP_WORDS: Tuple[str, ...]

class Engine:
    game: str
    rule: str
    swap: bool
    player: Any
    colours: str
    words: Tuple[str, str]
    shape: Union[int, Tuple[int, int]]
    board: Any
    finished: bool
    time_left: List[Optional[float]]
    game_time: Optional[float]
    log: Optional[Callable[[str], Any]]
    def __init__(self, game: str, size: Optional[int] = ..., rule: str = ..., swap: bool = ...,
                 player: Any = ..., colours: str = ...,
                 log: Optional[Callable[[str], Any]] = ...) -> None: ...
    def handle(self, line: str) -> Optional[str]: ...
    def serve(self, stdin: Iterable[Union[str, bytes]], stdout: IO[str]) -> None: ...
