"""The command line's parser, over the one table of commands and options
(``table``), from which the usage and help texts are made too.  The texts are made
in ``_help``, and the values of the options a judge run seldom or never
takes (the engine's, the arbiter's, Dask's) are checked in ``_values``: both
load only when needed, so that a judge run, whose start-up is part of every
run, compiles and runs little more than the parser.

Every option takes the forms ``-j 2``, ``-j2``, ``-j=2``, ``--jobs 2`` and
``--jobs=2``; ``--`` ends the options.  A usage error (an unknown option, a
bad or missing value, a missing or extra argument) is the usage line and one
``havhex: error: ...`` line on stderr, exit status 2.

Every command, the engine and the arbiter (``gtp``, ``match``) too, is read
here: an option that several commands take (``--rule``, ``--swap``,
``--size``) is declared once and means the same in each.

Hand-written rather than argparse: argparse (with ``re`` and ``gettext``)
would double the start-up time of a judge run.
"""
from .._version import __version__
from .table import (COMMANDS, DRAW_INPUTS, GAMES, JUDGE_FORMAT_ONLY, OPTIONS, PLAYERS,
                    PROGRAM, READERS, RECORD, RECORD_ONLY, Command, EarlyExit, Later, Option,
                    _options_of)

# The annotations are for type checkers only, in quotes: the command line's
# start-up imports neither typing nor __future__.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Dict, List, Literal, Optional, Sequence, Set, Tuple, Union

__all__ = ["COMMANDS", "GAMES", "OPTIONS", "Arguments", "Command", "EarlyExit", "Option",
           "help_text", "parse_arguments", "short_usage", "usage_error", "usage_text"]

class Arguments:
    """The parsed command line.  ``command`` is a game (judge its inputs),
    ``"replay"``, ``"draw"``, ``"gtp"`` or ``"match"``; every option's
    attribute holds its default (in that command) until given."""

    # Every option's attribute (the table's), as __init__ sets it.
    command: str
    files: "List[str]"
    game: "Optional[str]"
    file: "Optional[str]"
    help: bool
    output: "Optional[str]"
    jobs: int
    format: str
    quiet: bool
    rule: "Literal['official', 'contest']"     # --rule takes no other
    scheduler: "Optional[str]"
    cluster: "Optional[str]"
    ship: bool
    case: int
    text: bool
    game_number: int
    move: "Optional[int]"
    html: bool
    kind: "Optional[str]"
    max_cells: "Optional[int]"
    size: "Optional[int]"
    engine: "List[List[str]]"
    specs: "List[Any]"
    games: int
    rounds: int
    pairing: str
    st: "Optional[float]"
    tc: "Optional[Tuple[float, float]]"
    margin: float
    openings: "Tuple[str, int, Optional[str]]"
    swap: bool
    player: str
    simulations: "Optional[int]"
    seconds: "Optional[float]"
    seed: "Optional[int]"
    colours: str
    verbose: bool
    concurrency: int
    sprt: "Any"
    records: "Optional[str]"
    dat: "Optional[str]"
    jsonl: "Optional[str]"
    resume: bool
    given: "Set[str]"

    def __init__(self, command: str) -> None:
        self.command = command
        self.files = []        # the judges' inputs: none means standard input
        self.game = None       # draw: the game of FILE; gtp, match: the game played
        self.file = None       # draw: its one input
        self.specs = []        # match: the engines, each --engine's EngineSpec
        self.given = set()     # the attributes of the options given
        self.__dict__.update(_defaults(command))


_DEFAULTS: "Dict[str, Dict[str, Any]]" = {}


def _defaults(command: str) -> "Dict[str, Any]":
    """Every option's attribute and its default in ``command``, made once
    (a list default is never changed in place: --engine makes a new one)."""
    if command not in _DEFAULTS:
        _DEFAULTS[command] = {option.attribute: option.default_for(command)
                              for option in OPTIONS}
    return _DEFAULTS[command]


def usage_text(command: "Optional[str]" = None) -> str:
    """The usage of ``command`` (None: of ``havhex`` itself), in lines of at
    most TEXT_WIDTH characters, as argparse wraps it."""
    from ._help import usage_text

    return usage_text(command)


def short_usage(command: "Optional[str]" = None) -> str:
    """One usage line for a usage error (the whole usage is in ``--help``)."""
    from ._help import short_usage

    return short_usage(command)


def help_text(command: "Optional[str]" = None) -> str:
    """The ``--help`` text of ``command`` (None: of ``havhex`` itself)."""
    from ._help import help_text

    return help_text(command)


def usage_error(command: "Optional[str]", message: str) -> EarlyExit:
    """The ``EarlyExit`` of a usage error in ``command`` (None: before one)."""
    from ._help import usage_error

    return usage_error(command, message)


_usage_error = usage_error


def _spellings(command: str) -> "Dict[str, Option]":
    return {name: option for option in _options_of(command) for name in option.names}


def _split(word: str) -> "Tuple[str, Optional[str]]":
    """``(name, value)`` of an option word: ``--jobs=2``, ``-j=2`` and
    ``-j2`` carry their value (``-j`` alone carries None)."""
    if word.startswith("--"):
        name, joined, value = word.partition("=")
        return name, (value if joined else None)
    if len(word) > 2:
        return word[:2], word[3:] if word[2] == "=" else word[2:]
    return word, None


def parse_arguments(argv: "Sequence[str]") -> Arguments:
    """The command line ``argv`` (without the program's name) as
    ``Arguments``; raises ``EarlyExit`` for help, the version and usage errors."""
    if not argv:
        raise _usage_error(None, "the following arguments are required: COMMAND")
    head = argv[0]
    if head in ("-h", "--help"):
        raise EarlyExit(0, help_text())
    if head == "--version":
        raise EarlyExit(0, f"{PROGRAM} {__version__}\n")
    if head not in COMMANDS:
        listed = ", ".join(repr(name) for name in COMMANDS)
        raise _usage_error(None, f"argument COMMAND: invalid choice: {head!r} "
                                 f"(choose from {listed})")
    command = head
    arguments = Arguments(command)
    spellings = _spellings(command)
    positional: "List[str]" = []
    counts: "Dict[str, int]" = {}
    words = argv[1:]
    index = 0
    while index < len(words):
        word = words[index]
        index += 1
        if word == "--":
            positional.extend(words[index:])
            break
        if not word.startswith("-") or word == "-":
            positional.append(word)
            continue
        value: "Union[str, List[str], None]"
        name, value = _split(word)
        option = spellings.get(name)
        if option is None:
            raise _usage_error(command, f"unrecognized arguments: {word}")
        if not option.takes_value:
            if value is not None:
                raise _usage_error(command, f"argument {option.label}: takes no value, "
                                            f"got {word!r}")
            if option.attribute == "help":
                raise EarlyExit(0, help_text(command))
            setattr(arguments, option.attribute, True)
        else:
            # A value is the next word(s), whatever they look like (as getopt
            # takes them); only a value of one or more words stops at an
            # option, its first word too (a forgotten value is then named).
            if value is None:
                if index == len(words) or (option.words == "+"
                                           and words[index].startswith("-")):
                    expected = (f"{option.words} arguments" if option.words not in (1, "+")
                                else "one argument" if option.words == 1
                                else "at least one argument")
                    raise _usage_error(command, f"argument {option.label}: expected {expected}")
                value = words[index]
                index += 1
            if option.words != 1:
                values = [value]
                if option.words == "+":
                    while index < len(words) and not words[index].startswith("-"):
                        values.append(words[index])
                        index += 1
                else:
                    if TYPE_CHECKING:
                        assert isinstance(option.words, int)   # not "+" here
                    values += words[index:index + option.words - 1]
                    index += option.words - 1
                    if len(values) < option.words:
                        raise _usage_error(command, f"argument {option.label}: expected "
                                                    f"{option.words} arguments")
                value = values
            try:
                convert = option.convert
                if isinstance(convert, Later):
                    from . import _values

                    convert = getattr(_values, convert.name)
                if TYPE_CHECKING:
                    assert convert is not None      # it takes a value
                converted = convert(value)
            except ValueError as exc:
                raise _usage_error(command, f"argument {option.label}: {exc}") from None
            if option.append:
                converted = getattr(arguments, option.attribute) + [converted]
            setattr(arguments, option.attribute, converted)
        if option.group is not None:
            for other in _options_of(command):
                if (other.group == option.group and other is not option
                        and other.attribute in arguments.given):
                    raise _usage_error(command, f"argument {option.label}: not allowed "
                                                f"with argument {other.label}")
        arguments.given.add(option.attribute)
        counts[option.attribute] = counts.get(option.attribute, 0) + 1
    _take_positionals(arguments, positional, counts)
    _check_cluster(arguments)
    if command in PLAYERS:
        from . import _values

        (_values.check_gtp if command == "gtp" else _values.check_match)(arguments)
    return arguments


def _check_cluster(arguments: Arguments) -> None:
    """The options of a Dask run go together as the help says."""
    command = arguments.command
    if command not in READERS:
        return
    on_cluster = arguments.scheduler is not None or arguments.cluster is not None
    if arguments.scheduler is not None and arguments.cluster is not None:
        raise _usage_error(command, "argument --cluster: not allowed with argument --scheduler")
    if arguments.ship and not on_cluster:
        raise _usage_error(command, "argument --ship: needs --scheduler or --cluster")
    if on_cluster and "jobs" in arguments.given:
        # The cluster's workers set the parallelism; -j would be ignored.
        raise _usage_error(command, "argument -j/--jobs: not allowed with --scheduler or "
                                    "--cluster (the workers set the parallelism)")


def _take_positionals(arguments: Arguments, positional: "List[str]",
                      counts: "Dict[str, int]") -> None:
    command = arguments.command
    if "" in positional:
        # A mistake of the command line (an empty variable, say), as with -o ''.
        raise _usage_error(command, "argument FILE: expected a file name, got ''")
    if command in READERS:
        arguments.files = positional
        return
    if command in PLAYERS:
        from ._values import take_game

        take_game(arguments, positional, counts)
        return
    if not positional:
        raise _usage_error(command, "the following arguments are required: GAME")
    if len(positional) > 2:
        raise _usage_error(command, f"unrecognized arguments: {' '.join(positional[2:])}")
    game, file = positional if len(positional) == 2 else (positional[0], "-")
    if game not in DRAW_INPUTS:
        listed = ", ".join(repr(name) for name in DRAW_INPUTS)
        raise _usage_error(command, f"argument GAME: invalid choice: {game!r} "
                                    f"(choose from {listed})")
    wrong, only = ((JUDGE_FORMAT_ONLY, f"GAME {' or '.join(GAMES)}") if game == RECORD
                   else (RECORD_ONLY, f"GAME {RECORD}"))
    for option in OPTIONS:
        if option.attribute in wrong and option.attribute in arguments.given:
            raise _usage_error(command, f"argument {option.label}: only with {only}")
    arguments.game, arguments.file = game, file


