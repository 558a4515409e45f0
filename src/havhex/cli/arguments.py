"""The command line's words: one table of commands and options, from which
both the parser and the usage and help texts are made.

Every option takes the forms ``-j 2``, ``-j2``, ``-j=2``, ``--jobs 2`` and
``--jobs=2``; ``--`` ends the options.  A usage error (an unknown option, a
bad or missing value, a missing or extra argument) is the usage line and one
``havhex: error: ...`` line on stderr, exit status 2.

Hand-written rather than argparse: argparse (with ``re`` and ``gettext``)
would double the start-up time of a judge run.
"""
from .._version import __version__

__all__ = ["COMMANDS", "GAMES", "OPTIONS", "OWN_PARSERS", "Arguments", "Command", "EarlyExit", "Option",
           "help_text", "parse_arguments", "short_usage", "usage_text"]

PROGRAM = "havhex"
GAMES = ("havannah", "hex")
# draw's GAME: a game's judge format, or "record" for a game record, whose
# game its GM[] or its extension says (so the word names the format, as
# "havannah" and "hex" do, not a game).
RECORD = "record"
DRAW_INPUTS = GAMES + (RECORD,)
JUDGES = GAMES
REPLAY = ("replay",)
DRAW = ("draw",)
# The commands whose positional arguments are any number of input files.
READERS = JUDGES + REPLAY
EVERY_COMMAND = READERS + DRAW
HELP_COLUMN = 22   # where an option's help starts, as in argparse
TEXT_WIDTH = 79


class EarlyExit(Exception):
    """Leave with ``status`` after printing ``text``: to stdout when the
    status is 0 (help, version), else to stderr (a usage error)."""

    def __init__(self, status, text):
        super().__init__(text)
        self.status = status
        self.text = text


class Arguments:
    """The parsed command line.  ``command`` is a game (judge its inputs),
    ``"replay"`` or ``"draw"``; every option's attribute holds its default until given."""

    def __init__(self, command):
        self.command = command
        self.files = []        # the judges' inputs: none means standard input
        self.game = None       # draw: the game of FILE
        self.file = None       # draw: its one input
        self.given = set()     # the attributes of the options given
        for option in OPTIONS:
            setattr(self, option.attribute, option.default)


# ---------------------------------------------------------------------------
# Values
# ---------------------------------------------------------------------------

def _at_least(minimum):
    """A converter to an int >= minimum, of ASCII digits only: ``int()`` alone
    would also take ``' 2'``, ``'1_0'``, ``'+2'`` and other scripts' digits."""

    def convert(value):
        digits = value[1:] if value.startswith("-") else value
        if not (digits.isascii() and digits.isdigit()):
            raise ValueError(f"invalid int value: {value!r}")
        try:
            number = int(value)
        except ValueError:   # beyond the digits int() converts
            raise ValueError(f"invalid int value: {value!r}") from None
        if number < minimum:
            raise ValueError(f"must be at least {minimum}, got {number}")
        return number

    return convert


def _one_of(*choices):
    def convert(value):
        if value not in choices:
            listed = ", ".join(repr(choice) for choice in choices)
            raise ValueError(f"invalid choice: {value!r} (choose from {listed})")
        return value

    convert.choices = choices
    return convert


def _file_name(value):
    # An empty name would otherwise fall back to standard output unnoticed.
    if not value:
        raise ValueError("expected a file name, got ''")
    return value


def _address(value):
    """A scheduler's address, ``[PROTOCOL://]HOST:PORT``: checked here, since
    Dask takes a malformed one only to fail slowly."""
    protocol, separator, rest = value.rpartition("://")
    host, colon, port = rest.rpartition(":")
    if (value != value.strip() or not colon or not host or not port.isascii()
            or not port.isdigit() or not 0 < int(port) < 65536
            or (separator and not protocol)):
        raise ValueError(f"expected a scheduler address [PROTOCOL://]HOST:PORT, got {value!r}")
    return value


# Worker processes --cluster local:N may start, per core: each is a Python
# process of some 100 MB, and more than a few per core only share the cores.
_LOCAL_WORKERS_PER_CORE = 4


def _local_workers_limit():
    """The largest N of ``--cluster local:N`` on this machine."""
    import os

    return _LOCAL_WORKERS_PER_CORE * (os.cpu_count() or 1)


def _local_cluster(value):
    """``local:N`` with 1 <= N <= :func:`_local_workers_limit` worker
    processes (a larger N would start processes until memory runs out)."""
    kind, colon, count = value.partition(":")
    if kind != "local" or not colon:
        raise ValueError(f"expected local:N, got {value!r}")
    limit = _local_workers_limit()
    digits = count.isascii() and count.isdigit()
    if digits and len(count.lstrip("0")) > len(str(limit)):
        number = limit + 1          # beyond the limit, however many digits
    else:
        try:
            number = _at_least(1)(count)
        except ValueError:
            raise ValueError(f"expected local:N with N at least 1, got {value!r}") from None
    if number > limit:
        raise ValueError(f"expected local:N with N at most {limit} "
                         f"({_LOCAL_WORKERS_PER_CORE} per core), got {value[:40]!r}"
                         + ("..." if len(value) > 40 else ""))
    return f"local:{number}"


# ---------------------------------------------------------------------------
# The table
# ---------------------------------------------------------------------------

class Option:
    """One option: its spellings, the attribute of ``Arguments`` it sets,
    ``convert`` for its value (None: a flag, which takes no value and sets
    True), the commands that take it and its help: one text, or a dict of
    texts by command (each command's help says what the option does there,
    not what it does in the others)."""

    def __init__(self, names, attribute, default, help, commands, convert=None, metavar=None):
        self.names = names
        self.attribute = attribute
        self.default = default
        self.help = help
        self.commands = commands
        self.convert = convert
        self.metavar = metavar

    @property
    def takes_value(self):
        return self.convert is not None

    @property
    def label(self):
        """The option as error messages name it: ``-j/--jobs``."""
        return "/".join(self.names)

    def help_for(self, command):
        """The option's help in ``command``'s help."""
        if isinstance(self.help, dict):
            return self.help[command]
        return self.help

    def shown_value(self):
        choices = getattr(self.convert, "choices", None)
        return "{" + ",".join(choices) + "}" if choices else self.metavar


# The same spelling means the same thing in every command that takes it.
OPTIONS = (
    Option(("-h", "--help"), "help", False, "show this help message and exit", EVERY_COMMAND),
    Option(("-o", "--output"), "output", None,
           {**dict.fromkeys(JUDGES, "write the output to OUT, only once every input is judged"),
            "replay": "write the output to OUT, only once every record is replayed",
            "draw": "write the picture (or the page) to OUT"},
           EVERY_COMMAND, _file_name, "OUT"),
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
            "replay": "no summary line on stderr"}, READERS),
    Option(("--rule",), "rule", "official",
           "Havannah's ring rule: official (a loop around any cells; default) or contest "
           "(a loop around an empty cell)",
           REPLAY + DRAW, _one_of("official", "contest")),
    Option(("--scheduler",), "scheduler", None,
           "run on the Dask cluster whose scheduler is at ADDRESS (host:port or "
           "tcp://host:port; needs havhex[dask])",
           READERS, _address, "ADDRESS"),
    Option(("--cluster",), "cluster", None,
           "run on a Dask cluster of N worker processes started on this machine for the "
           "run (needs havhex[dask])",
           READERS, _local_cluster, "local:N"),
    Option(("--ship",), "ship", False,
           "with --scheduler or --cluster: read the inputs here and send their bytes to "
           "the workers (default: workers read the paths)", READERS),
    Option(("--case",), "case", 1, "the case to draw, counted from 1 (default 1)",
           DRAW, _at_least(1), "N"),
    Option(("--text",), "text", False, "print the board as text instead of SVG", DRAW),
    Option(("--game",), "game_number", 1,
           "record: the game of the file to draw, counted from 1 (default 1)",
           DRAW, _at_least(1), "N"),
    Option(("--move",), "move", None,
           "record: draw the position after move K, swaps counted (0: the start; default "
           "the winning move, else the last)",
           DRAW, _at_least(0), "K"),
    Option(("--html",), "html", False,
           "record: write one self-contained HTML page that steps through the game "
           "(buttons, arrow keys), opened at move K",
           DRAW),
    Option(("--kind",), "kind", None,
           "record: the game of records without GM[] (default: GM[] or the file's "
           "extension says; .hgf is Havannah), as for standard input",
           REPLAY + DRAW, _one_of("hex", "havannah")),
    Option(("--max-cells",), "max_cells", None,
           "record: the most cells a record's board may have (default 1000000); a "
           "bigger board is refused, not allocated",
           REPLAY + DRAW, _at_least(1), "N"),
)

# draw's options for one kind of input only: given with the other, a usage error.
RECORD_ONLY = ("game_number", "move", "html", "rule", "kind", "max_cells")
JUDGE_FORMAT_ONLY = ("case", "text")


class Command:
    """A command's positional arguments, ``(shown, help)`` pairs where
    ``shown`` is as the usage line shows it (``[FILE]``: optional, ``[FILE
    ...]``: any number), and what it does."""

    def __init__(self, summary, description, positionals):
        self.summary = summary
        self.description = description
        self.positionals = positionals


_STDIN_NOTE = "none or '-' reads standard input"
COMMANDS = {
    "havannah": Command(
        "the first move that completes a ring, a bridge or a fork",
        "Judge havannah: the first move that completes a ring, a bridge or a fork.",
        (("[FILE ...]", f"inputs in the judge format; {_STDIN_NOTE}"),)),
    "hex": Command(
        "whether a Hex position is possible, and who has won",
        "Judge hex: whether a Hex position is possible, and who has won.",
        (("[FILE ...]", f"inputs in the judge format; {_STDIN_NOTE}"),)),
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
        "N = 200 (the text view up to 40), Havannah boards in the text view up to "
        "S = 20 and as SVG of any size with up to 100000 stones drawn.  A case beyond "
        "them is refused before its moves are read.  With GAME record, draw game N of "
        "a record (SGF Hex, Little Golem .hgf) after move K, both players' stones, the "
        "structure highlighted from the winning move on, or (--html) the page that "
        "steps through it; boards up to Havannah S = 41 and Hex 200 x 200.",
        (("GAME", "havannah or hex (an input in the judge format), or record"),
         ("[FILE]", f"the input or the record file; {_STDIN_NOTE}"))),
}

# The commands that parse their own words (everything after the command's
# name goes to their module's ``main``): the engine and the arbiter, whose
# options (cutechess-cli's shape for the arbiter) are not the judges'.
OWN_PARSERS = {
    "gtp": "a GTP engine over havhex's boards (random or MCTS player)",
    "match": "play engines against each other, every move checked by havhex's judge",
}


# ---------------------------------------------------------------------------
# Usage and help, made from the table
# ---------------------------------------------------------------------------

def _options_of(command):
    return [option for option in OPTIONS if command in option.commands]


def usage_text(command=None):
    """The usage of ``command`` (None: of ``havhex`` itself), in lines of at
    most TEXT_WIDTH characters, as argparse wraps it: every option, then the
    positional arguments, each line after the first under the first option."""
    if command is None:
        return f"usage: {PROGRAM} [-h] [--version] COMMAND ..."
    lead = f"usage: {PROGRAM} {command}"
    words = []
    for option in _options_of(command):
        shown = option.shown_value()
        words.append(f"[{option.names[0]} {shown}]" if shown else f"[{option.names[0]}]")
    words += [shown for shown, _ in COMMANDS[command].positionals]
    lines, line = [], lead
    for word in words:
        if line.strip() and len(line) + 1 + len(word) > TEXT_WIDTH:
            lines.append(line)
            line = " " * len(lead)
        line = f"{line} {word}"
    lines.append(line)
    return "\n".join(lines)


def short_usage(command=None):
    """One usage line for a usage error (the whole usage is in ``--help``)."""
    if command is None:
        return usage_text()
    positionals = " ".join(shown for shown, _ in COMMANDS[command].positionals)
    return f"usage: {PROGRAM} {command} [-h] [options] {positionals}"


def _wrap(text, indent, width=TEXT_WIDTH):
    """``text`` in lines of at most ``width`` characters after ``indent`` spaces."""
    lines, line = [], ""
    for word in text.split():
        if line and indent + len(line) + 1 + len(word) > width:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    lines.append(line)
    return lines


def _entry(invocation, help):
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


def help_text(command=None):
    """The ``--help`` text of ``command`` (None: of ``havhex`` itself)."""
    lines = [usage_text(command), ""]
    if command is None:
        lines += ["Fast, explainable judges for the connection games Havannah and Hex.", "",
                  "commands:"]
        for name, entry in COMMANDS.items():
            lines += _entry(name, entry.summary)
        for name, summary in OWN_PARSERS.items():
            lines += _entry(name, summary)
        lines += ["", f'Run "{PROGRAM} COMMAND --help" for a command\'s options.']
        return "\n".join(lines) + "\n"
    entry = COMMANDS[command]
    lines += _wrap(entry.description, 0) + ["", "positional arguments:"]
    for shown, help in entry.positionals:
        lines += _entry(shown.strip("[]. "), help)
    lines += ["", "options:"]
    for option in _options_of(command):
        shown = option.shown_value()
        invocation = ", ".join(option.names) + (f" {shown}" if shown else "")
        lines += _entry(invocation, option.help_for(command))
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------------------
# The parser
# ---------------------------------------------------------------------------

def _usage_error(command, message):
    return EarlyExit(2, f"{short_usage(command)}\n{PROGRAM}: error: {message}\n")


def _spellings(command):
    return {name: option for option in _options_of(command) for name in option.names}


def _split(word):
    """``(name, value)`` of an option word: ``--jobs=2``, ``-j=2`` and
    ``-j2`` carry their value (``-j`` alone carries None)."""
    if word.startswith("--"):
        name, joined, value = word.partition("=")
        return name, (value if joined else None)
    if len(word) > 2:
        return word[:2], word[3:] if word[2] == "=" else word[2:]
    return word, None


def parse_arguments(argv):
    """The command line ``argv`` (without the program's name) as
    ``Arguments``; raises ``EarlyExit`` for help, the version and usage errors."""
    if not argv:
        raise _usage_error(None, "the following arguments are required: COMMAND")
    head = argv[0]
    if head in ("-h", "--help"):
        raise EarlyExit(0, help_text())
    if head == "--version":
        raise EarlyExit(0, f"{PROGRAM} {__version__}\n")
    if head in OWN_PARSERS:
        arguments = Arguments(head)
        arguments.files = list(argv[1:])    # the command's own words, parsed by its module
        return arguments
    if head not in COMMANDS:
        listed = ", ".join(repr(name) for name in (*COMMANDS, *OWN_PARSERS))
        raise _usage_error(None, f"argument COMMAND: invalid choice: {head!r} "
                                 f"(choose from {listed})")
    command = head
    arguments = Arguments(command)
    spellings = _spellings(command)
    positional = []
    words = iter(argv[1:])
    for word in words:
        if word == "--":
            positional.extend(words)
            break
        if not word.startswith("-") or word == "-":
            positional.append(word)
            continue
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
            arguments.given.add(option.attribute)
            continue
        if value is None:
            value = next(words, None)
            if value is None:
                raise _usage_error(command, f"argument {option.label}: expected one argument")
        try:
            setattr(arguments, option.attribute, option.convert(value))
        except ValueError as exc:
            raise _usage_error(command, f"argument {option.label}: {exc}") from None
        arguments.given.add(option.attribute)
    _take_positionals(arguments, positional)
    _check_cluster(arguments)
    return arguments


def _check_cluster(arguments):
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


def _take_positionals(arguments, positional):
    command = arguments.command
    if "" in positional:
        # A mistake of the command line (an empty variable, say), as with -o ''.
        raise _usage_error(command, "argument FILE: expected a file name, got ''")
    if command in READERS:
        arguments.files = positional
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
