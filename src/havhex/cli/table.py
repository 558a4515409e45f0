"""The command line's table: every command and every option, once, from
which the parser (``arguments``) and the usage and help texts (``_help``)
are made.  An option that several commands take (``--rule``, ``--swap``,
``--size``) is declared once and means the same in each.  The built-in
games' judges are commands of their own; their words are their
descriptors', read only for a help text.
"""
from ..games import BUILT_IN

# The annotations are for type checkers only, in quotes: the command line's
# start-up imports neither typing nor __future__.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Callable, Dict, List, Optional, Tuple, Union

__all__ = ["COMMANDS", "GAMES", "OPTIONS", "Command", "JudgeCommand", "EarlyExit", "Option",
           "Later"]

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
GTP = ("gtp",)
MATCH = ("match",)
# The commands whose positional arguments are any number of input files.
READERS = JUDGES + REPLAY
# The commands that play: the engine and the arbiter.
PLAYERS = GTP + MATCH
EVERY_COMMAND = READERS + DRAW + PLAYERS
HELP_COLUMN = 22   # where an option's help starts, as in argparse
TEXT_WIDTH = 79


class EarlyExit(Exception):
    """Leave with ``status`` after printing ``text``: to stdout when the
    status is 0 (help, version), else to stderr (a usage error)."""

    def __init__(self, status: int, text: str) -> None:
        super().__init__(text)
        self.status = status
        self.text = text


# ---------------------------------------------------------------------------
# Values
# ---------------------------------------------------------------------------

def _at_least(minimum: int, maximum: "Optional[int]" = None) -> "Callable[[str], int]":
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


class Later:
    """The converter ``name`` of ``_values``, which the parser imports when
    its option is given: options that a judge run seldom or never takes."""

    def __init__(self, name: str) -> None:
        self.name = name


def _later(name: str) -> Later:
    return Later(name)


def _one_of(*choices: str) -> "Callable[[str], str]":
    def convert(value: str) -> str:
        if value not in choices:
            listed = ", ".join(repr(choice) for choice in choices)
            raise ValueError(f"invalid choice: {value!r} (choose from {listed})")
        return value

    # Option.shown_value reads them, with getattr: an attribute a type
    # checker does not know a function to have.
    convert.choices = choices  # type: ignore[attr-defined]
    return convert


def _file_name(value: str) -> str:
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
    True), the commands that take it and its help: one text, or a dict of
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
                 convert: "Union[Callable[[Any], Any], Later, None]" = None,
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


_RULE_HELP = ("Havannah's ring rule: official (a loop around any cells; default) or "
              "contest (a loop around an empty cell)")

# The same spelling means the same thing in every command that takes it.
OPTIONS: "Tuple[Option, ...]" = (
    Option(("-h", "--help"), "help", False, "show this help message and exit", EVERY_COMMAND),
    # The engine's and the arbiter's own options first: their usage lines
    # then start with what they need.
    Option(("--size",), "size", None,
           {"gtp": "the board: Hex N x N (default 11, at most 128), Havannah base N "
                   "(default 8, 2 to 64); boardsize changes it",
            "match": "the board: Hex N x N, Havannah base N"},
           PLAYERS, _at_least(1), "N", required={"match": 1}),
    Option(("--engine",), "engine", None,
           "one engine's words (as havhex.match.engines.EngineSpec takes them): "
           "cmd=COMMAND, its command line quoted as for a shell, and any of name=NAME, "
           "dialect=havhex|morat|benzene|castro, dir=DIR, stderr=FILE, "
           "init=GTP-COMMAND and arg=WORD (both repeatable), proto=gtp",
           MATCH, list, "SPEC", words="+", append=True, required={"match": 2}),
    Option(("--games",), "games", 2, "games per pair of engines and round (default 2)",
           MATCH, _at_least(1), "N"),
    Option(("--rounds",), "rounds", 1, "rounds: each plays --games games of every pair "
           "(default 1)", MATCH, _at_least(1), "N"),
    Option(("--pairing",), "pairing", "round-robin",
           "with three engines or more: every pair (round-robin, the default) or the "
           "first engine against each other (gauntlet)",
           MATCH, _one_of("round-robin", "gauntlet")),
    Option(("--st",), "st", None, "seconds a move, on the arbiter's clock", MATCH,
           _later("seconds"), "SECONDS"),
    Option(("--tc",), "tc", None,
           "BASE seconds a game plus INC seconds a move, on the arbiter's clock",
           MATCH, _later("time_control"), "BASE+INC"),
    Option(("--margin",), "margin", 0.1,
           "seconds past the clock before a move loses on time (default 0.1)",
           MATCH, _later("seconds_or_zero"), "SECONDS"),
    Option(("--openings",), "openings", ("none", 2, None),
           "none (the default), all (every one-move opening), plies=N (N random "
           "moves) or file=PATH (the games of an SGF or .hgf file); each is played "
           "twice, seats reversed",
           MATCH, _later("openings"), "{none,all,plies=N,file=PATH}"),
    Option(("--swap",), "swap", False, "the pie rule is on: the second player may swap",
           PLAYERS),
    Option(("--player",), "player", "mcts",
           "who chooses genmove's moves: random or mcts (a Monte Carlo tree search; "
           "default)", GTP, _one_of("random", "mcts")),
    Option(("--simulations",), "simulations", None,
           "mcts: simulations a move (default: the clock's time, else 1000)",
           GTP, _at_least(1, 10 ** 12 - 1), "N", group="budget"),
    Option(("--seconds",), "seconds", None, "mcts: seconds a move",
           GTP, _later("seconds"), "SECONDS", group="budget"),
    Option(("--seed",), "seed", {"gtp": None, "match": 0},
           {"gtp": "the player's random seed (default: a fresh one)",
            "match": "the seed of random openings (default 0)"},
           PLAYERS, _at_least(0, 10 ** 18 - 1), "N"),
    Option(("--colours",), "colours", "havhex",
           "the colour words: havhex (Hex red/blue, Havannah white/black; default), "
           "benzene (black moves first), morat (white moves first)",
           GTP, _one_of("havhex", "benzene", "morat")),
    Option(("--verbose",), "verbose", False,
           "after each genmove, a line on stderr: its time and simulations a second", GTP),
    Option(("--concurrency",), "concurrency", 1, "games played at once (default 1)",
           MATCH, _at_least(1), "N"),
    Option(("--sprt",), "sprt", None,
           "a sequential probability ratio test of elo0 against elo1 (two engines): "
           "the match stops when it accepts one",
           MATCH, _later("sprt_words"), "elo0=E0 elo1=E1 alpha=A beta=B", words=4),
    Option(("--records",), "records", None,
           "write a record of each game into DIR (SGF for Hex, .hgf for Havannah)",
           MATCH, _file_name, "DIR"),
    Option(("--dat",), "dat", None, "write gogui-twogtp's results table to FILE",
           MATCH, _file_name, "FILE"),
    Option(("--jsonl",), "jsonl", None, "write a JSON object a game to FILE, one a line",
           MATCH, _file_name, "FILE"),
    Option(("--resume",), "resume", False,
           "go on with a stopped match: play only the games --jsonl FILE does not hold",
           MATCH),
    Option(("-o", "--output"), "output", None,
           {**dict.fromkeys(JUDGES, "write the output to OUT, only once every input is judged"),
            "replay": "write the output to OUT, only once every record is replayed",
            "draw": "write the picture (or the page) to OUT"},
           READERS + DRAW, _file_name, "OUT"),
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
                      "with the witness of its win and the file it comes from"},
           READERS, _one_of("text", "json")),
    Option(("--quiet",), "quiet", False,
           {**dict.fromkeys(JUDGES, "no progress display"),
            "replay": "no summary line on stderr",
            "match": "print nothing when the match runs: no progress line, no summary"},
           READERS + MATCH),
    Option(("--rule",), "rule", "official",
           {**dict.fromkeys(REPLAY + PLAYERS, _RULE_HELP), "draw": f"record: {_RULE_HELP}"},
           REPLAY + DRAW + PLAYERS, _one_of("official", "contest")),
    Option(("--scheduler",), "scheduler", None,
           "run on the Dask cluster whose scheduler is at ADDRESS (host:port or "
           "tcp://host:port; needs havhex[dask])",
           READERS, _later("address"), "ADDRESS"),
    Option(("--cluster",), "cluster", None,
           "run on a Dask cluster of N worker processes started on this machine for the "
           "run (needs havhex[dask])",
           READERS, _later("local_cluster"), "local:N"),
    Option(("--ship",), "ship", False,
           "with --scheduler or --cluster: read the inputs here and send their bytes to "
           "the workers (default: workers read the paths)", READERS),
    Option(("--case",), "case", 1, "the case to draw, counted from 1 (default 1)",
           DRAW, _at_least(1), "N"),
    Option(("--text",), "text", False, "print the board as text instead of SVG", DRAW),
    Option(("--game",), "game_number", 1,
           "record: the game of the file to draw, counted from 1 (default 1)",
           DRAW, _at_least(1), "G"),
    Option(("--move",), "move", None,
           "record: draw the position after move K, swaps counted (0: the start; default "
           "the winning move, else the last)",
           DRAW, _at_least(0), "K"),
    Option(("--html",), "html", False,
           "record: write one self-contained HTML page that steps through the game "
           "(buttons, arrow keys), opened at move K",
           DRAW),
    Option(("--kind",), "kind", None,
           {"replay": "the game of records without GM[] (default: GM[] or the file's "
                      "extension says; .hgf is Havannah), as for standard input",
            "draw": "record: the game of a record without GM[] (default: GM[] or the "
                    "file's extension says; .hgf is Havannah), as for standard input"},
           REPLAY + DRAW, _one_of(*GAMES)),
    Option(("--max-cells",), "max_cells", None,
           {"replay": "the most cells a record's board may have (default 1000000); a "
                      "bigger board is refused, not allocated",
            "draw": "record: the most cells the record's board may have (default "
                    "1000000); a bigger board is refused, not allocated"},
           REPLAY + DRAW, _at_least(1), "CELLS"),
)

# draw's options for one kind of input only: given with the other, a usage error.
RECORD_ONLY = ("game_number", "move", "html", "rule", "kind", "max_cells")
JUDGE_FORMAT_ONLY = ("case", "text")


class Command:
    """A command's positional arguments, ``(shown, help)`` pairs where
    ``shown`` is as the usage line shows it (``[FILE]``: optional, ``[FILE
    ...]``: any number), and what it does."""

    def __init__(self, summary: str, description: str,
                 positionals: "Tuple[Tuple[str, str], ...]") -> None:
        self.summary = summary
        self.description = description
        self.positionals = positionals


_STDIN_NOTE = "none or '-' reads standard input"
_GAME_WORDS = " or ".join(GAMES)
_PLAYED_GAMES = f"{', '.join(GAMES)} or an installed game (havhex.games)"


class JudgeCommand(Command):
    """The judge of one game: its words are the game's descriptor's, read
    only when a help text is made."""

    def __init__(self, game: str) -> None:
        self.game = game
        self.positionals = (("[FILE ...]", f"inputs in the judge format; {_STDIN_NOTE}"),)

    # Read-only here, where Command has attributes: the game's descriptor
    # says them.
    @property
    def summary(self) -> str:  # type: ignore[override]
        from ..games import get

        summary = get(self.game).judge_summary
        if TYPE_CHECKING:
            assert summary is not None      # a judge's descriptor has one
        return summary

    @property
    def description(self) -> str:  # type: ignore[override]
        return f"Judge {self.game}: {self.summary}."


COMMANDS: "Dict[str, Command]" = {
    **{game: JudgeCommand(game) for game in JUDGES},
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
        "a GTP engine over havhex's boards (random or MCTS player)",
        "A GTP engine over havhex's boards, on standard input and output: it plays "
        "at random or by Monte Carlo tree search, and ends on quit or at the end of "
        "its input (docs/matches.md).",
        (("GAME", _PLAYED_GAMES),)),
    "match": Command(
        "play engines against each other, every move checked by havhex's judge",
        "Play GTP engines against each other, every move checked on havhex's board; "
        "the summary (wins, draws, losses, Elo) goes to stdout (docs/matches.md).",
        (("GAME", _PLAYED_GAMES),)),
}


def _options_of(command: str) -> "List[Option]":
    return [option for option in OPTIONS if command in option.commands]
