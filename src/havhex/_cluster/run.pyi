from typing import Iterator, Optional, Sequence

from ..records.run import Summary

__all__ = ["run_outputs"]

REPLAY_MEANWHILE_FILES: int

def run_outputs(command: str, files: Sequence[str], output_format: str, *,
                scheduler: Optional[str] = ..., local_workers: Optional[int] = ...,
                ship: bool = ..., rule: str = ..., game: Optional[str] = ...,
                max_cells: Optional[int] = ...,
                summary: Optional[Summary] = ...) -> Iterator[Iterator[str]]: ...
