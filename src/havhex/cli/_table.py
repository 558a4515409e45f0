"""The command line's table, its parts: an option (:class:`Option`) and the
converters of its values, which the table of every command and the
searchers' options (_player_table) both build from.  A leaf: the start-up
of a judge run imports it with the parser."""

# The annotations are for type checkers only, in quotes: the command line's
# start-up imports neither typing nor __future__.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Callable, Dict, Optional, Tuple, Union

__all__ = ["Option", "at_least", "one_of", "file_name", "GTP", "MATCH", "ANALYSE", "SOLVE",
           "PLAYERS", "SEARCHERS"]

# The commands that play, search or solve: they take the options of
# _player_table besides the table's own.
GTP = ("gtp",)
MATCH = ("match",)
ANALYSE = ("analyse",)
SOLVE = ("solve",)
# The commands that play: the engine and the arbiter.
PLAYERS = GTP + MATCH
SEARCHERS = PLAYERS + ANALYSE + SOLVE


# ---------------------------------------------------------------------------
# Values
# ---------------------------------------------------------------------------

def at_least(minimum: int, maximum: "Optional[int]" = None) -> "Callable[[str], int]":
    """A converter to an int >= minimum (and <= maximum, if given), of ASCII
    digits only: ``int()`` alone would also take ``' 2'``, ``'1_0'``,
    ``'+2'`` and other scripts' digits."""

    def convert(value: str) -> int:
        digits = value[1:] if value.startswith("-") else value
        if not (digits.isascii() and digits.isdigit()):
            raise ValueError(f"invalid int value: {value!r}")
        if maximum is not None and len(digits.lstrip("0")) > len(str(maximum)):
            # Beyond the bound however many digits, without converting them.
            raise ValueError(f"must be at most {maximum}, got {value[:40]!r}"
                             + ("..." if len(value) > 40 else ""))
        try:
            number = int(value)
        except ValueError:   # beyond the digits int() converts
            raise ValueError(f"invalid int value: {value!r}") from None
        if number < minimum:
            raise ValueError(f"must be at least {minimum}, got {number}")
        if maximum is not None and number > maximum:
            raise ValueError(f"must be at most {maximum}, got {number}")
        return number

    return convert


def one_of(*choices: str) -> "Callable[[str], str]":
    def convert(value: str) -> str:
        if value not in choices:
            listed = ", ".join(repr(choice) for choice in choices)
            raise ValueError(f"invalid choice: {value!r} (choose from {listed})")
        return value

    # Option.shown_value reads them, with getattr: an attribute a type
    # checker does not know a function to have.
    convert.choices = choices  # type: ignore[attr-defined]
    return convert


def file_name(value: str) -> str:
    # An empty name would otherwise fall back to standard output unnoticed.
    if not value:
        raise ValueError("expected a file name, got ''")
    return value


# ---------------------------------------------------------------------------
# The table
# ---------------------------------------------------------------------------

class Option:
    """One option: its spellings, the attribute of ``Arguments`` it sets,
    ``convert`` for its value (None: a flag, which takes no value and sets
    True; a name: the converter of that name in ``_values``, which the
    parser imports when the option is given, for options that a judge run
    seldom or never takes), the commands that take it and its help: one text, or a dict of
    texts by command (each command's help says what the option does there,
    not what it does in the others).

    ``words`` is how many words its value is: 1, a number, or ``"+"`` (one
    or more, up to the next option); ``convert`` takes the one word, else
    the list of them.  ``append``: each time it is given adds its value to
    a list (else the last one counts).  ``required``: the commands that
    need it, with how many times.  ``group``: options of one group exclude
    each other.  ``default`` may be a dict of defaults by command."""

    def __init__(self, names: "Tuple[str, ...]", attribute: str, default: "Any",
                 help: "Union[str, Dict[str, str]]", commands: "Tuple[str, ...]",
                 convert: "Union[Callable[[Any], Any], str, None]" = None,
                 metavar: "Optional[str]" = None, words: "Union[int, str]" = 1,
                 append: bool = False, required: "Optional[Dict[str, int]]" = None,
                 group: "Optional[str]" = None) -> None:
        self.names = names
        self.attribute = attribute
        self.default = default
        self.help = help
        self.commands = commands
        self.convert = convert
        self.metavar = metavar
        self.words = words
        self.append = append
        self.required: "Dict[str, int]" = required or {}
        self.group = group

    @property
    def takes_value(self) -> bool:
        return self.convert is not None

    @property
    def label(self) -> str:
        """The option as error messages name it: ``-j/--jobs``."""
        return "/".join(self.names)

    def default_for(self, command: str) -> "Any":
        if isinstance(self.default, dict):
            return self.default.get(command)
        return [] if self.append else self.default

    def help_for(self, command: str) -> str:
        """The option's help in ``command``'s help, with how often it is
        required there."""
        text = self.help[command] if isinstance(self.help, dict) else self.help
        times = self.required.get(command)
        if times == 1:
            text += " (required)"
        elif times:
            text += " (required, given twice or more)" if times == 2 else \
                f" (required, given {times} times or more)"
        return text

    def shown_value(self) -> "Optional[str]":
        choices = getattr(self.convert, "choices", None)
        return "{" + ",".join(choices) + "}" if choices else self.metavar

    def invocation(self, name: "Optional[str]" = None) -> str:
        """``--jobs N``: a spelling and the value it takes."""
        shown = self.shown_value()
        name = self.names[0] if name is None else name
        return f"{name} {shown}" if shown else name
