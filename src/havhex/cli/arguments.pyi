from typing import Any, Callable, Mapping, Sequence

__all__ = ["COMMANDS", "GAMES", "OPTIONS", "OWN_PARSERS", "Arguments", "Command", "EarlyExit", "Option",
           "help_text", "parse_arguments", "short_usage", "usage_text"]

GAMES: tuple[str, ...]

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
    given: set[str]
    def __init__(self, command: str) -> None: ...

class Option:
    names: tuple[str, ...]
    attribute: str
    default: Any
    help: str | dict[str, str]
    commands: tuple[str, ...]
    convert: Callable[[str], Any] | None
    metavar: str | None
    def __init__(self, names: tuple[str, ...], attribute: str, default: Any,
                 help: str | dict[str, str],
                 commands: tuple[str, ...], convert: Callable[[str], Any] | None = ...,
                 metavar: str | None = ...) -> None: ...
    @property
    def takes_value(self) -> bool: ...
    @property
    def label(self) -> str: ...
    def help_for(self, command: str) -> str: ...
    def shown_value(self) -> str | None: ...

class Command:
    summary: str
    description: str
    positionals: tuple[tuple[str, str], ...]
    def __init__(self, summary: str, description: str,
                 positionals: tuple[tuple[str, str], ...]) -> None: ...

OPTIONS: tuple[Option, ...]
COMMANDS: Mapping[str, Command]
OWN_PARSERS: Mapping[str, str]

def usage_text(command: str | None = ...) -> str: ...
def short_usage(command: str | None = ...) -> str: ...
def help_text(command: str | None = ...) -> str: ...
def parse_arguments(argv: Sequence[str]) -> Arguments: ...
