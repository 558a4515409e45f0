from typing import Any, Callable, Iterable, Iterator, Literal, Optional, Sequence, Tuple, Union
from os import PathLike

from ._units import bundle_files_for as bundle_files_for
from ._cluster.judge import judge_task as judge_task

__all__ = ["judge_files", "replay_files", "CONNECT_TIMEOUT", "BUNDLE_FILES",
           "REPLAY_BUNDLE_FILES", "REPLAY_UNIT_BYTES", "REPLAY_UNIT_BYTES_MIN",
           "UNIT_BYTES_MIN", "UNIT_BYTES_MAX"]

CONNECT_TIMEOUT: int
BUNDLE_FILES: int
REPLAY_BUNDLE_FILES: int
# Deprecated: BUNDLE_FILES and REPLAY_BUNDLE_FILES.
BATCH_FILES: int
REPLAY_BATCH_FILES: int
REPLAY_UNIT_BYTES: int
REPLAY_UNIT_BYTES_MIN: int
UNIT_BYTES_MIN: int
UNIT_BYTES_MAX: int
TASKS_PER_WORKER: int

_Unit = Tuple[Any, ...]
_Plan = Iterator[Tuple[Any, ...]]
_Done = list[Tuple[str, Any]]

def plan_judge(files: Sequence[str], game: str, ship: bool, workers: int) -> _Plan: ...
def plan_replay(files: Sequence[str], ship: bool, workers: int) -> _Plan: ...
def plan_record_files(files: Sequence[str], ship: bool, workers: int) -> _Plan: ...
def replay_unit_bytes(workers: int) -> Callable[[int], int]: ...
def judge_records(game: str, units: Sequence[_Unit]) -> list[dict[str, Any]]: ...
def replay_records(rule: str, units: Sequence[_Unit]) -> list[dict[str, Any]]: ...
def judge_files(paths: Iterable[Union[str, PathLike[str]]], game: Literal["havannah", "hex"], *,
                ship: bool = ...) -> Any: ...
def replay_files(paths: Iterable[Union[str, PathLike[str]]], *,
                 rule: Literal["official", "contest"] = ..., ship: bool = ...) -> Any: ...
