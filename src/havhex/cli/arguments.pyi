from typing import Any, Sequence

from .table import COMMANDS as COMMANDS, GAMES as GAMES, OPTIONS as OPTIONS
from .table import Command as Command, EarlyExit as EarlyExit, Option as Option

__all__ = ["COMMANDS", "GAMES", "OPTIONS", "Arguments", "Command", "EarlyExit", "Option",
           "help_text", "parse_arguments", "short_usage", "usage_error", "usage_text"]

class Arguments:
    command: str
    files: list[str]
    game: str | None
    file: str | None
    help: bool
    output: str | None
    jobs: int
    format: str
    quiet: bool
    rule: str
    scheduler: str | None
    cluster: str | None
    ship: bool
    case: int
    text: bool
    game_number: int
    move: int | None
    html: bool
    kind: str | None
    max_cells: int | None
    size: int | None
    engine: list[list[str]]
    specs: list[Any]
    games: int
    rounds: int
    pairing: str
    st: float | None
    tc: tuple[float, float] | None
    margin: float
    openings: tuple[str, int, str | None]
    swap: bool
    player: str
    simulations: int | None
    seconds: float | None
    seed: int | None
    colours: str
    verbose: bool
    concurrency: int
    sprt: Any
    records: str | None
    dat: str | None
    jsonl: str | None
    resume: bool
    given: set[str]
    def __init__(self, command: str) -> None: ...

def usage_text(command: str | None = ...) -> str: ...
def short_usage(command: str | None = ...) -> str: ...
def help_text(command: str | None = ...) -> str: ...
def usage_error(command: str | None, message: str) -> EarlyExit: ...
def parse_arguments(argv: Sequence[str]) -> Arguments: ...
