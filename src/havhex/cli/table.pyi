from typing import Any, Callable, Mapping

__all__ = ["COMMANDS", "GAMES", "OPTIONS", "Command", "JudgeCommand", "EarlyExit", "Option",
           "Later"]

PROGRAM: str
GAMES: tuple[str, ...]
HELP_COLUMN: int
TEXT_WIDTH: int

class EarlyExit(Exception):
    status: int
    text: str
    def __init__(self, status: int, text: str) -> None: ...

class Option:
    names: tuple[str, ...]
    attribute: str
    default: Any
    help: str | dict[str, str]
    commands: tuple[str, ...]
    convert: Callable[[Any], Any] | Later | None
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

class JudgeCommand(Command):
    game: str
    def __init__(self, game: str) -> None: ...
    # Read-only here: the game's descriptor says them.
    @property
    def summary(self) -> str: ...  # type: ignore[override]
    @property
    def description(self) -> str: ...  # type: ignore[override]

class Later:
    name: str
    def __init__(self, name: str) -> None: ...

OPTIONS: tuple[Option, ...]
COMMANDS: Mapping[str, Command]

def _at_least(minimum: int, maximum: int | None = ...) -> Callable[[str], int]: ...
def _options_of(command: str) -> list[Option]: ...
