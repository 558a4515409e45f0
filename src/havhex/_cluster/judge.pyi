from types import ModuleType
from typing import Any, Iterator, Optional, Sequence, Tuple

__all__ = ["judge_module", "judge_task", "plan_judge"]

_Unit = Tuple[Any, ...]

def judge_module(game: str) -> ModuleType: ...
def judge_task(game: str, output_format: str, units: Sequence[_Unit]) -> list[Tuple[str, Any]]: ...
def plan_judge(files: Sequence[str], sizes: Sequence[Optional[int]], game: str, ship: bool,
               unit: int, batch_files: int) -> Iterator[Tuple[Any, ...]]: ...
