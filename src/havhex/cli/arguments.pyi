from typing import Any, Callable, Mapping, Sequence

__all__ = ["COMMANDS", "GAMES", "OPTIONS", "Arguments", "Command", "EarlyExit", "Option",
           "help_text", "parse_arguments", "short_usage", "usage_error", "usage_text"]

PROGRAM: str
GAMES: tuple[str, ...]
HELP_COLUMN: int
TEXT_WIDTH: int

class EarlyExit(Exception):
    status: int
    text: str
    def __init__(self, status: int, text: str) -> None: ...

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

class Option:
    names: tuple[str, ...]
    attribute: str
    default: Any
    help: str | dict[str, str]
    commands: tuple[str, ...]
    convert: Callable[[Any], Any] | None
    metavar: str | None
    words: int | str
    append: bool
    required: dict[str, int]
    group: str | None
    def __init__(self, names: tuple[str, ...], attribute: str, default: Any,
                 help: str | dict[str, str],
                 commands: tuple[str, ...], convert: Callable[[Any], Any] | None = ...,
                 metavar: str | None = ..., words: int | str = ..., append: bool = ...,
                 required: dict[str, int] | None = ..., group: str | None = ...) -> None: ...
    @property
    def takes_value(self) -> bool: ...
    @property
    def label(self) -> str: ...
    def default_for(self, command: str) -> Any: ...
    def help_for(self, command: str) -> str: ...
    def shown_value(self) -> str | None: ...
    def invocation(self, name: str | None = ...) -> str: ...

class Command:
    summary: str
    description: str
    positionals: tuple[tuple[str, str], ...]
    def __init__(self, summary: str, description: str,
                 positionals: tuple[tuple[str, str], ...]) -> None: ...

OPTIONS: tuple[Option, ...]
COMMANDS: Mapping[str, Command]

def _at_least(minimum: int, maximum: int | None = ...) -> Callable[[str], int]: ...
def _options_of(command: str) -> list[Option]: ...
def usage_text(command: str | None = ...) -> str: ...
def short_usage(command: str | None = ...) -> str: ...
def help_text(command: str | None = ...) -> str: ...
def usage_error(command: str | None, message: str) -> EarlyExit: ...
def parse_arguments(argv: Sequence[str]) -> Arguments: ...
