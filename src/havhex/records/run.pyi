from typing import Any, Iterable, Iterator, Optional, Sequence, Tuple

from .._pool import Pool

__all__ = ["replay_outputs", "replay_pool", "file_outputs", "Summary"]

UNIT_BYTES: int
BUNDLE_FILES: int
TASKS_PER_WORKER: int

_Counts = Tuple[int, int, int, dict[str, int]]

class Summary:
    files: int
    games: int
    moves: int
    wins: int
    flags: dict[str, int]
    def __init__(self) -> None: ...
    def add(self, counts: _Counts) -> None: ...
    def line(self) -> str: ...

def replay_outputs(files: Sequence[str], rule: str, output_format: str, jobs: int,
                   summary: Summary, game: Optional[str] = ...,
                   max_cells: Optional[int] = ...) -> Iterator[Iterator[str]]: ...
def replay_pool(processes: int, rule: str, output_format: str, game: Optional[str] = ...,
                max_cells: Optional[int] = ...) -> Pool: ...
def file_outputs(results: Iterable[Tuple[int, Tuple[str, Any]]],
                 summary: Summary) -> Iterator[Iterator[str]]: ...
