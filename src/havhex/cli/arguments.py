"""The command line: the one table of every command and every option, the
usage and help texts made from it, and the parser that reads it.

An option that several commands take (``--rule``, ``--swap``, ``--size``)
is declared once and means the same in each.  The start-up of a judge run
is part of every run, so it makes little more than its own options: the
engine's and the arbiter's (``gtp``, ``match``; ``analyse``, which
searches, takes some) are made when one of them is read
(:func:`player_options`), and the values of the options a judge run
seldom or never takes (the engine's, the arbiter's, Dask's) are converted
and checked in ``_values``, loaded then.  One module: a second one for the
table would cost every run's start-up an import.

Every option takes the forms ``-j 2``, ``-j2``, ``-j=2``, ``--jobs 2`` and
``--jobs=2``; ``--`` ends the options.  A usage error (an unknown option, a
bad or missing value, a missing or extra argument) is the usage line and one
``havhex: error: ...`` line on stderr, exit status 2.

Hand-written rather than argparse: argparse (with ``re`` and ``gettext``)
would double the start-up time of a judge run.
"""
from .._version import __version__
from ..games import BUILT_IN
from ._table import ANALYSE, GTP, MATCH, PLAYERS, SEARCHERS, SOLVE, Option
from ._table import at_least as _at_least
from ._table import file_name as _file_name
from ._table import one_of as _one_of

# The annotations are for type checkers only, in quotes: the command line's
# start-up imports neither typing nor __future__.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import (Any, Callable, Dict, List, Literal, Optional, Sequence, Set, Tuple,
                        Union)

__all__ = ["COMMANDS", "GAMES", "OPTIONS", "Arguments", "Command", "EarlyExit", "Option",
           "every_option", "help_text", "parse_arguments", "player_options", "short_usage",
           "usage_error", "usage_text"]

PROGRAM = "havhex"
# The games whose contest judges, records and pictures the commands read:
# the built-in ones (havhex.games), named without reading any installed
# distribution.  gtp and match take any game the registry finds.
GAMES = BUILT_IN
# draw's GAME: a game's judge format, or "record" for a game record, whose
# game its GM[] or its extension says (so the word names the format, as a
# game's name does, not a game).
RECORD = "record"
DRAW_INPUTS = GAMES + (RECORD,)
JUDGES = GAMES
REPLAY = ("replay",)
DRAW = ("draw",)
# The commands whose positional arguments are any number of input files.
READERS = JUDGES + REPLAY
EVERY_COMMAND = READERS + DRAW + PLAYERS + ANALYSE + SOLVE
HELP_COLUMN = 22   # where an option's help starts, as in argparse
TEXT_WIDTH = 79


class EarlyExit(Exception):
    """Leave with ``status`` after printing ``text``: to stdout when the
    status is 0 (help, version), else to stderr (a usage error)."""

    def __init__(self, status: int, text: str) -> None:
        super().__init__(text)
        self.status = status
        self.text = text


def _game_or_number(value: str) -> str:
    """A game's name; or a number, draw's --game N before 0.2 (for
    --record N), which the parser checks."""
    if value in GAMES or (value.isascii() and value.isdigit()):
        return value
    listed = ", ".join(repr(game) for game in GAMES)
    raise ValueError(f"invalid choice: {value[:40]!r} (choose from {listed})")


# The help shows the games' names (Option.shown_value).
_game_or_number.choices = GAMES  # type: ignore[attr-defined]


_DEPRECATED_KIND = "deprecated: --game GAME"
_RULE_HELP = ("Havannah's ring rule: official (a loop around any cells; default) or "
              "contest (a loop around an empty cell)")

# The same spelling means the same thing in every command that takes it.
# The options of the readers and draw, with those the engine and the
# arbiter share with them (--help, --quiet, --rule); the engine's and the
# arbiter's own follow --help in their commands (player_options).
OPTIONS: "Tuple[Option, ...]" = (
    Option(("-h", "--help"), "help", False, "show this help message and exit", EVERY_COMMAND),
    Option(("-o", "--output"), "output", None,
           {**dict.fromkeys(JUDGES, "write the output to OUT, only once every input is judged"),
            "replay": "write the output to OUT, only once every record is replayed",
            "draw": "write the picture (or the page) to OUT",
            "analyse": "write the report (or the page) to OUT, only once every game is "
                       "reviewed",
            "solve": "write the answers to OUT, only once every position is solved"},
           READERS + DRAW + ANALYSE + SOLVE, _file_name, "OUT"),
    Option(("-j", "--jobs"), "jobs", 1,
           {**dict.fromkeys(JUDGES, "judge on N threads (0: one per core; default 1)"),
            "replay": "replay on N processes: this one and N - 1 workers (0: one per "
                      "core; default 1)"},
           READERS, _at_least(0), "N"),
    Option(("--format",), "format", "text",
           {**dict.fromkeys(JUDGES, "text: the judge's lines (default); json: one JSON "
                                    "object per case with the witness of its answer and "
                                    "the file it comes from"),
            "replay": "text: one line per game (default); json: one JSON object per game "
                      "with the witness of its win and the file it comes from",
            "analyse": "text: a line per move and the moves that lose the most (default); "
                       "json: one JSON object per move",
            "solve": "text: a line per position (default); json: one JSON object per "
                     "position"},
           READERS + ANALYSE + SOLVE, _one_of("text", "json"), group="report"),
    Option(("--html",), "html", False,
           {"draw": "record: write one self-contained HTML page that steps through the game "
                    "(buttons, arrow keys), opened at move K",
            "analyse": "write the page that steps through the game instead of the report: "
                       "the win-rate curve under the board, the search's candidates on it "
                       "(one game)"},
           DRAW + ANALYSE, group="report"),
    Option(("--quiet",), "quiet", False,
           {**dict.fromkeys(JUDGES, "no progress display"),
            "replay": "no summary line on stderr",
            "match": "print nothing when the match runs: no progress line, no summary",
            "analyse": "no progress line on a terminal"},
           READERS + MATCH + ANALYSE),
    Option(("--rule",), "rule", "official",
           {**dict.fromkeys(REPLAY + SEARCHERS, _RULE_HELP), "draw": f"record: {_RULE_HELP}"},
           REPLAY + DRAW + SEARCHERS, _one_of("official", "contest")),
    Option(("--scheduler",), "scheduler", None,
           "run on the Dask cluster whose scheduler is at ADDRESS (host:port or "
           "tcp://host:port; needs havhex[dask])",
           READERS, "address", "ADDRESS"),
    Option(("--cluster",), "cluster", None,
           "run on a Dask cluster of N worker processes started on this machine for the "
           "run (needs havhex[dask])",
           READERS, "local_cluster", "local:N"),
    Option(("--ship",), "ship", False,
           "with --scheduler or --cluster: read the inputs here and send their bytes to "
           "the workers (default: workers read the paths)", READERS),
    Option(("--case",), "case", 1, "the case to draw, counted from 1 (default 1)",
           DRAW, _at_least(1), "N"),
    Option(("--text",), "text", False, "print the board as text instead of SVG", DRAW),
    Option(("--record",), "record", {"draw": 1},
           {"draw": "record: the record of the file to draw, counted from 1 (default 1)",
            "analyse": "review only the record N of each file, counted from 1 (default: "
                       "every record)"},
           DRAW + ANALYSE, _at_least(1), "N"),
    Option(("--move",), "move", None,
           "record: draw the position after move K, swaps counted (0: the start; default "
           "the winning move, else the last)",
           DRAW, _at_least(0), "K"),
    Option(("--game",), "record_game", None,
           {"replay": "the game of records without GM[] (default: GM[] or the file's "
                      "extension says; .hgf is Havannah), as for standard input",
            "draw": "record: the game of a record without GM[] (default: GM[] or the "
                    "file's extension says; .hgf is Havannah), as for standard input",
            "analyse": "the game of records without GM[] (default: GM[] or the file's "
                       "extension says; .hgf is Havannah), as for standard input"},
           REPLAY + DRAW + ANALYSE, _game_or_number),
    # The spellings before 0.2, kept for one release: --kind GAME, and
    # draw's --game N (a number: --record N), which _deprecated reads.
    Option(("--kind",), "record_game", None, _DEPRECATED_KIND,
           REPLAY + DRAW, _one_of(*GAMES)),
    Option(("--max-cells",), "max_cells", None,
           {"replay": "the most cells a record's board may have (default 1000000); a "
                      "bigger board is refused, not allocated",
            "draw": "record: the most cells the record's board may have (default "
                    "1000000); a bigger board is refused, not allocated",
            "analyse": "the most cells a record's board may have (default 1000000); a "
                       "bigger board is refused, not allocated",
            "solve": "the most cells a record's board may have (default 1000000); a "
                     "bigger board is refused, not allocated"},
           REPLAY + DRAW + ANALYSE + SOLVE, _at_least(1), "CELLS"),
)


_PLAYER_OPTIONS: "Optional[Tuple[Option, ...]]" = None


def player_options() -> "Tuple[Option, ...]":
    """The engine's, the arbiter's and the solver's own options (gtp,
    match, solve; analyse takes the search's and has its own there), made
    when one of their command lines or help texts is read: a judge run,
    whose start-up is part of every run, neither makes nor keeps them."""
    global _PLAYER_OPTIONS
    if _PLAYER_OPTIONS is None:
        from ._player_table import searchers_options

        _PLAYER_OPTIONS = searchers_options()
    return _PLAYER_OPTIONS


def every_option() -> "Tuple[Option, ...]":
    """Every option of every command, in the order the help shows them:
    --help, the engine's and the arbiter's own, then the others."""
    return OPTIONS[:1] + player_options() + OPTIONS[1:]

# draw's options for one kind of input only: given with the other, a usage error.
RECORD_ONLY = ("record", "move", "html", "rule", "record_game", "max_cells")
JUDGE_FORMAT_ONLY = ("case", "text")


class Command:
    """A command's positional arguments, ``(shown, help)`` pairs where
    ``shown`` is as the usage line shows it (``[FILE]``: optional, ``[FILE
    ...]``: any number), and what it does.  A game's judge has no texts
    here (None): the help reads them from the game's descriptor."""

    def __init__(self, summary: "Optional[str]", description: "Optional[str]",
                 positionals: "Tuple[Tuple[str, str], ...]") -> None:
        self.summary = summary
        self.description = description
        self.positionals = positionals


_STDIN_NOTE = "none or '-' reads standard input"
_GAME_WORDS = " or ".join(GAMES)
_PLAYED_GAMES = f"{', '.join(GAMES)} or an installed game (havhex.games)"
_JUDGE_POSITIONALS = (("[FILE ...]", f"inputs in the judge format; {_STDIN_NOTE}"),)


COMMANDS: "Dict[str, Command]" = {
    **{game: Command(None, None, _JUDGE_POSITIONALS) for game in JUDGES},
    "replay": Command(
        "replay game records: who won, where and why",
        "Replay game records (SGF Hex GM[11], Little Golem Havannah .hgf): for each "
        "game, who completed what at which move, how it ended, what the record says, "
        "and flags: played-on, result-disagrees, illegal, no-result.  A summary line "
        "goes to stderr.",
        (("[FILE ...]", "record files or folders of them (.sgf, .hgf, .hsgf); "
                        f"{_STDIN_NOTE}"),)),
    "draw": Command(
        "draw one case or one game record as an SVG picture (or as text, or a page)",
        "Draw case N of an input: the board after its winning move (or after all "
        "moves), with the winning structure highlighted.  Limits: Hex boards up to "
        "200 x 200 (the text view up to 40 x 40), Havannah boards in the text view up "
        "to base 20 and as SVG of any size with up to 100000 stones drawn.  A case "
        "beyond them is refused before its moves are read.  With GAME record, draw "
        "game G of a record (SGF Hex, Little Golem .hgf) after move K, both players' "
        "stones, the structure highlighted from the winning move on, or (--html) the "
        "page that steps through it; boards up to Havannah base 41 and Hex 200 x 200.",
        (("GAME", f"{_GAME_WORDS} (an input in the judge format), or {RECORD}"),
         ("[FILE]", f"the input or the record file; {_STDIN_NOTE}"))),
    "gtp": Command(
        "a GTP engine over havhex's boards (the search in C, UCT or random player)",
        "A GTP engine over havhex's boards, on standard input and output: it plays "
        "by the tree search in C (the default), by a plain UCT search or at random, "
        "and ends on quit or at the end of its input (docs/matches.md, "
        "docs/engine.md).",
        (("GAME", _PLAYED_GAMES),)),
    "match": Command(
        "play engines against each other, every move checked by havhex's judge",
        "Play GTP engines against each other, every move checked on havhex's board; "
        "the summary (wins, draws, losses, Elo) goes to stdout (docs/matches.md).",
        (("GAME", _PLAYED_GAMES),)),
    "analyse": Command(
        "review game records with the engine: each move's win rates and the worst moves",
        "Review game records (SGF Hex, Little Golem Havannah .hgf) with the tree "
        "search: for each move, its player's win rate before and after it, the "
        "search's best move, and the moves that lose the most (docs/engine.md).",
        (("[FILE ...]", f"record files; {_STDIN_NOTE}"),)),
    "solve": Command(
        "who wins with perfect play: positions of game records, or every opening",
        "Solve positions exactly (docs/solver.md): the last position of each game of "
        "record files (SGF Hex, Little Golem Havannah .hgf), or the one --before N moves "
        "before its end, or with --openings all every first move of an empty board.  Each "
        "answer is win, loss or draw for the player to move, with the winning move, or "
        "unknown past --seconds.",
        (("GAME", _GAME_WORDS),
         ("[FILE ...]", f"record files (without --openings all); {_STDIN_NOTE}"))),
}


def _options_of(command: str) -> "List[Option]":
    options = every_option() if command in SEARCHERS else OPTIONS
    return [option for option in options if command in option.commands]


# ---------------------------------------------------------------------------
# Usage and help
# ---------------------------------------------------------------------------

def _usage_words(command: str) -> "List[str]":
    """The usage line's words for ``command``'s options, as argparse shows
    them: ``[--jobs N]``; a required option bare, as many times as it is
    required (``[--engine SPEC ...]`` after, when it takes more); the
    options of a group that exclude each other, which the table lists
    together, as ``[--simulations N | --seconds SECONDS]``."""
    words: "List[str]" = []
    options = _options_of(command)
    index = 0
    while index < len(options):
        option = options[index]
        times = option.required.get(command, 0)
        if times:
            words += [option.invocation()] * times
            if option.append:
                words.append(f"[{option.invocation()} ...]")
        elif option.group is not None:
            group = [other for other in options[index:] if other.group == option.group]
            words.append("[" + " | ".join(other.invocation() for other in group) + "]")
            index += len(group)
            continue
        else:
            words.append(f"[{option.invocation()}]")
        index += 1
    return words


def usage_text(command: "Optional[str]" = None) -> str:
    """The usage of ``command`` (None: of ``havhex`` itself), in lines of at
    most TEXT_WIDTH characters, as argparse wraps it: every option, then the
    positional arguments, each line after the first under the first option."""
    if command is None:
        return f"usage: {PROGRAM} [-h] [--version] COMMAND ..."
    lead = f"usage: {PROGRAM} {command}"
    words = _usage_words(command) + [shown for shown, _ in COMMANDS[command].positionals]
    lines: "List[str]" = []
    line = lead
    for word in words:
        if line.strip() and len(line) + 1 + len(word) > TEXT_WIDTH:
            lines.append(line)
            line = " " * len(lead)
        line = f"{line} {word}"
    lines.append(line)
    return "\n".join(lines)


def short_usage(command: "Optional[str]" = None) -> str:
    """One usage line for a usage error (the whole usage is in ``--help``):
    the options required, then the others as ``[options]``."""
    if command is None:
        return usage_text()
    required = [word for word in _usage_words(command)
                if not word.startswith("[")]
    positionals = " ".join(shown for shown, _ in COMMANDS[command].positionals)
    return " ".join([f"usage: {PROGRAM} {command} [-h]", *required, "[options]", positionals])


def _texts(command: str) -> "Tuple[str, str]":
    """``command``'s summary and description: a game's judge's are its
    descriptor's, read only here."""
    entry = COMMANDS[command]
    if entry.summary is not None and entry.description is not None:
        return entry.summary, entry.description
    from ..games import get

    summary = get(command).judge_summary or ""
    return summary, f"Judge {command}: {summary}."


def _wrap(text: str, indent: int, width: int = TEXT_WIDTH) -> "List[str]":
    """``text`` in lines of at most ``width`` characters after ``indent`` spaces."""
    lines: "List[str]" = []
    line = ""
    for word in text.split():
        if line and indent + len(line) + 1 + len(word) > width:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    lines.append(line)
    return lines


def _entry(invocation: str, help: str) -> "List[str]":
    """An argparse-style help entry: the help beside the invocation, or on
    the next lines when the invocation is too long to leave room."""
    helps = _wrap(help, HELP_COLUMN)
    lead = f"  {invocation}"
    if len(lead) <= HELP_COLUMN - 2:
        first = f"{lead:<{HELP_COLUMN}}{helps[0]}"
        rest = helps[1:]
    else:
        first, rest = lead, helps
    return [first] + [" " * HELP_COLUMN + line for line in rest]


def help_text(command: "Optional[str]" = None) -> str:
    """The ``--help`` text of ``command`` (None: of ``havhex`` itself)."""
    lines = [usage_text(command), ""]
    if command is None:
        lines += ["Fast, explainable judges for the connection games Havannah and Hex.", "",
                  "commands:"]
        for name in COMMANDS:
            lines += _entry(name, _texts(name)[0])
        lines += ["", f'Run "{PROGRAM} COMMAND --help" for a command\'s options.']
        return "\n".join(lines) + "\n"
    entry = COMMANDS[command]
    lines += _wrap(_texts(command)[1], 0) + ["", "positional arguments:"]
    for shown, help in entry.positionals:
        lines += _entry(shown.strip("[]. "), help)
    lines += ["", "options:"]
    for option in _options_of(command):
        value = option.shown_value()
        invocation = ", ".join(option.names) + (f" {value}" if value else "")
        lines += _entry(invocation, option.help_for(command))
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------------------
# The parser
# ---------------------------------------------------------------------------

class Arguments:
    """The parsed command line.  ``command`` is a game (judge its inputs),
    ``"replay"``, ``"draw"``, ``"gtp"``, ``"match"`` or ``"analyse"``; the
    attribute of every option the command's family may take holds its
    default (in that command) until given: the options of
    :func:`player_options` are attributes of their commands only."""

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
    record: "Optional[int]"      # analyse: None, every record
    move: "Optional[int]"
    html: bool
    threshold: float
    record_game: "Optional[str]"
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
    max_nodes: "Optional[int]"
    threads: int
    seed: "Optional[int]"
    colours: str
    verbose: bool
    concurrency: int
    sprt: "Any"
    records: "Optional[str]"
    dat: "Optional[str]"
    jsonl: "Optional[str]"
    resume: bool
    solve_openings: bool
    before: int
    memory: int
    given: "Set[str]"
    warnings: "List[str]"

    def __init__(self, command: str) -> None:
        self.command = command
        self.solve_openings = False     # solve: --openings all
        self.files = []        # the judges' inputs: none means standard input
        self.game = None       # draw: the game of FILE; gtp, match: the game played
        self.file = None       # draw: its one input
        self.specs = []        # match: the engines, each --engine's EngineSpec
        self.given = set()     # the attributes of the options given
        self.warnings = []     # what the command line should say otherwise
        self.__dict__.update(_defaults(command))


_DEFAULTS: "Dict[str, Dict[str, Any]]" = {}


def _defaults(command: str) -> "Dict[str, Any]":
    """Every option's attribute and its default in ``command``, made once
    (a list default is never changed in place: --engine makes a new one)."""
    if command not in _DEFAULTS:
        options = every_option() if command in SEARCHERS else OPTIONS
        _DEFAULTS[command] = {option.attribute: option.default_for(command)
                              for option in options}
    return _DEFAULTS[command]


def usage_error(command: "Optional[str]", message: str) -> EarlyExit:
    """The ``EarlyExit`` of a usage error in ``command`` (None: before one):
    one usage line and one error line."""
    return EarlyExit(2, f"{short_usage(command)}\n{PROGRAM}: error: {message}\n")



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
        raise usage_error(None, "the following arguments are required: COMMAND")
    head = argv[0]
    if head in ("-h", "--help"):
        raise EarlyExit(0, help_text())
    if head == "--version":
        raise EarlyExit(0, f"{PROGRAM} {__version__}\n")
    if head not in COMMANDS:
        listed = ", ".join(repr(name) for name in COMMANDS)
        raise usage_error(None, f"argument COMMAND: invalid choice: {head!r} "
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
            raise usage_error(command, f"unrecognized arguments: {word}")
        if option.help == _DEPRECATED_KIND:
            arguments.warnings.append("--kind is deprecated: use --game")
        if not option.takes_value:
            if value is not None:
                raise usage_error(command, f"argument {option.label}: takes no value, "
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
                    raise usage_error(command, f"argument {option.label}: expected {expected}")
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
                        raise usage_error(command, f"argument {option.label}: expected "
                                                    f"{option.words} arguments")
                value = values
            try:
                convert = option.convert
                if isinstance(convert, str):
                    from . import _values

                    convert = getattr(_values, convert)
                if TYPE_CHECKING:
                    assert convert is not None      # it takes a value
                converted = convert(value)
            except ValueError as exc:
                raise usage_error(command, f"argument {option.label}: {exc}") from None
            if option.append:
                converted = getattr(arguments, option.attribute) + [converted]
            setattr(arguments, option.attribute, converted)
        if option.group is not None:
            for other in _options_of(command):
                if (other.group == option.group and other is not option
                        and other.attribute in arguments.given):
                    raise usage_error(command, f"argument {option.label}: not allowed "
                                                f"with argument {other.label}")
        arguments.given.add(option.attribute)
        counts[option.attribute] = counts.get(option.attribute, 0) + 1
    _deprecated(arguments)
    _take_positionals(arguments, positional, counts)
    _check_cluster(arguments)
    if command in PLAYERS:
        from . import _values

        check = _values.check_gtp if command == "gtp" else _values.check_match
        try:
            check(arguments, _options_of(command))
        except _values.Refused as refused:
            raise usage_error(command, str(refused)) from None
    return arguments


def _deprecated(arguments: Arguments) -> None:
    """The spellings before 0.2, kept for one release with a warning:
    ``--kind GAME`` (now ``--game GAME``) and draw's ``--game N`` (now
    ``--record N``)."""
    command = arguments.command
    value = arguments.record_game
    if value is None or value in GAMES:
        return
    if command != "draw":
        listed = ", ".join(repr(game) for game in GAMES)
        raise usage_error(command, f"argument --game: invalid choice: {value[:40]!r} "
                                   f"(choose from {listed})")
    try:
        arguments.record = _at_least(1)(value)
    except ValueError as error:
        raise usage_error(command, f"argument --game: {error}") from None
    arguments.record_game = None
    arguments.given.add("record")
    arguments.warnings.append("--game N is deprecated for a record's number: use --record N")


def _check_cluster(arguments: Arguments) -> None:
    """The options of a Dask run go together as the help says."""
    command = arguments.command
    if command not in READERS:
        return
    on_cluster = arguments.scheduler is not None or arguments.cluster is not None
    if arguments.scheduler is not None and arguments.cluster is not None:
        raise usage_error(command, "argument --cluster: not allowed with argument --scheduler")
    if arguments.ship and not on_cluster:
        raise usage_error(command, "argument --ship: needs --scheduler or --cluster")
    if on_cluster and "jobs" in arguments.given:
        # The cluster's workers set the parallelism; -j would be ignored.
        raise usage_error(command, "argument -j/--jobs: not allowed with --scheduler or "
                                    "--cluster (the workers set the parallelism)")


def _take_solve(arguments: Arguments, positional: "List[str]") -> None:
    """solve's GAME and its files, or --openings and --size."""
    if not positional:
        raise usage_error("solve", "the following arguments are required: GAME")
    if positional[0] not in GAMES:
        listed = ", ".join(repr(game) for game in GAMES)
        raise usage_error("solve", f"argument GAME: invalid choice: {positional[0][:40]!r} "
                                   f"(choose from {listed})")
    arguments.game, arguments.files = positional[0], positional[1:]
    if "openings" in arguments.given and arguments.openings[0] != "all":
        raise usage_error("solve", "argument --openings: solve takes all (every one-move "
                                   "opening)")
    arguments.solve_openings = arguments.openings[0] == "all"
    if arguments.solve_openings:
        if arguments.files:
            raise usage_error("solve", "argument --openings: not allowed with record files")
        if arguments.size is None:
            raise usage_error("solve", "argument --openings: needs --size N")
        for name in ("before", "max_cells"):
            if name in arguments.given:
                raise usage_error("solve", f"argument --{name.replace('_', '-')}: not "
                                           f"allowed with --openings")
    elif arguments.size is not None:
        raise usage_error("solve", "argument --size: only with --openings all (records give "
                                   "their sizes)")


def _take_positionals(arguments: Arguments, positional: "List[str]",
                      counts: "Dict[str, int]") -> None:
    command = arguments.command
    if "" in positional:
        # A mistake of the command line (an empty variable, say), as with -o ''.
        raise usage_error(command, "argument FILE: expected a file name, got ''")
    if command in READERS + ANALYSE:
        arguments.files = positional
        return
    if command in SOLVE:
        _take_solve(arguments, positional)
        return
    if command in PLAYERS:
        from ._values import Refused, take_game

        try:
            take_game(arguments, positional, counts, _options_of(command))
        except Refused as refused:
            raise usage_error(command, str(refused)) from None
        return
    if not positional:
        raise usage_error(command, "the following arguments are required: GAME")
    if len(positional) > 2:
        raise usage_error(command, f"unrecognized arguments: {' '.join(positional[2:])}")
    game, file = positional if len(positional) == 2 else (positional[0], "-")
    if game not in DRAW_INPUTS:
        listed = ", ".join(repr(name) for name in DRAW_INPUTS)
        raise usage_error(command, f"argument GAME: invalid choice: {game!r} "
                                    f"(choose from {listed})")
    wrong, only = ((JUDGE_FORMAT_ONLY, f"GAME {' or '.join(GAMES)}") if game == RECORD
                   else (RECORD_ONLY, f"GAME {RECORD}"))
    for option in OPTIONS:
        if option.attribute in wrong and option.attribute in arguments.given:
            raise usage_error(command, f"argument {option.label}: only with {only}")
    arguments.game, arguments.file = game, file


