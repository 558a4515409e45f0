import os
from typing import BinaryIO, Callable, Iterable, Iterator, List, Sequence, Tuple, TypedDict, Union

Buffer = object  # collections.abc.Buffer from Python 3.12

Cell = Tuple[int, int]
# An (M, 2) buffer of integers of any dtype and byte order, or of objects
# that are integers; other dtypes raise TypeError.
Moves = Union[Iterable[Sequence[int]], Buffer]

MAX_SIZE: int
KINDS: Tuple[str, str, str]

class Result:
    kinds: Tuple[str, ...]
    move: int | None
    def __init__(self, kinds: Iterable[str], move: int | None) -> None: ...
    def __bool__(self) -> bool: ...
    def __eq__(self, other: object) -> bool: ...
    def __hash__(self) -> int: ...

def first_win(size: int, moves: Moves) -> Result: ...
Run = Tuple[int, int, int]  # (x, first_y, last_y)

def enclosed_runs(size: int, stones: Moves) -> list[Run]: ...
def enclosed_empty(size: int, stones: Moves) -> list[Cell]: ...
def judge_text(text: str | bytes | Buffer, *, source: str = ..., threads: int = ...) -> list[Result]: ...
def judge_file(
    file: str | bytes | os.PathLike[str] | BinaryIO, *, threads: int = ...,
    progress: Callable[[int, int, int], object] | None = ...,
) -> list[Result]: ...
def format_results(results: Iterable[Result]) -> str: ...

# Witnesses (explain*): cells are [x, y] lists, as in the JSON output.
JsonCell = List[int]

class BridgeWitness(TypedDict):
    path: list[JsonCell]

class ForkWitness(TypedDict):
    cells: list[JsonCell]

JsonRun = List[int]  # [x, first_y, last_y]

class RingWitness(TypedDict):
    loop: list[JsonCell]
    enclosed_runs: list[JsonRun]

class Explanation(TypedDict, total=False):
    case: int  # only from explain_text / explain_file
    answer: str
    move: int | None
    kinds: list[str]
    bridge: BridgeWitness
    fork: ForkWitness
    ring: RingWitness

def explain(size: int, moves: Moves) -> Explanation: ...
def explain_text(text: str | bytes | Buffer, *, source: str = ..., threads: int = ...) -> list[Explanation]: ...
def explain_file(file: str | bytes | os.PathLike[str] | BinaryIO, *, threads: int = ...) -> list[Explanation]: ...
def iter_explain_file(
    file: str | bytes | os.PathLike[str] | BinaryIO, *, threads: int = ...,
    progress: Callable[[int, int, int], object] | None = ...,
) -> Iterator[Explanation]: ...
