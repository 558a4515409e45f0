"""``havhex match hex|havannah ...``: engines against each other, refereed
by havhex (cutechess-cli's shape where it fits).

    havhex match hex --size 11 --engine cmd="morat-hex" name=A \\
        --engine cmd="havhex gtp hex" name=B --games 100 --st 0.5 \\
        --concurrency 2 --openings all --records games/ --dat match.dat \\
        --jsonl match.jsonl [--rule official|contest] [--swap] \\
        [--sprt elo0=0 elo1=30 alpha=0.05 beta=0.05] [--resume]

Exit status 0 when the match ran, whatever its games' results; a usage
error is one line on stderr and status 2; an engine that cannot be found or
started, or an openings file that cannot be read, one line and status 1.
"""
import argparse
import os
import shutil
import sys

__all__ = ["main", "build_parser", "parse_arguments"]

PROGRAM = "havhex match"


class UsageError(Exception):
    pass


class _Parser(argparse.ArgumentParser):
    def error(self, message):
        raise UsageError(message)

    def exit(self, status=0, message=None):
        if message:
            sys.stderr.write(message)
        raise SystemExit(status)


def _positive_int(text):
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"{text!r} is not a positive whole number")
    return value


def _seconds(text):
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not value > 0 or value == float("inf"):
        raise argparse.ArgumentTypeError(f"{text!r} is not a positive number of seconds")
    return value


def _time_control(text):
    """``BASE+INC`` or ``BASE`` seconds."""
    base, _, increment = text.partition("+")
    try:
        base_value = float(base)
        increment_value = float(increment) if increment else 0.0
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not BASE+INC in seconds") from None
    if not base_value > 0 or increment_value < 0 or base_value == float("inf"):
        raise argparse.ArgumentTypeError(f"{text!r}: BASE must be positive, INC not negative")
    return base_value, increment_value


def build_parser():
    parser = _Parser(prog=PROGRAM, add_help=True,
                     description="Play engines against each other, refereed by havhex.")
    parser.add_argument("game", choices=("hex", "havannah"))
    parser.add_argument("--size", type=_positive_int, required=True,
                        help="Hex: N x N; Havannah: base N")
    parser.add_argument("--engine", nargs="+", action="append", default=[],
                        metavar="OPTION", help="cmd=COMMAND [name=NAME] [dialect=D] [dir=DIR] "
                        "[stderr=FILE] [init=GTP-COMMAND ...]")
    parser.add_argument("--games", type=_positive_int, default=2,
                        help="games per pair of engines and round (default 2)")
    parser.add_argument("--rounds", type=_positive_int, default=1)
    parser.add_argument("--pairing", choices=("round-robin", "gauntlet"), default="round-robin")
    clock = parser.add_argument_group("time")
    clock.add_argument("--st", type=_seconds, help="seconds a move")
    clock.add_argument("--tc", type=_time_control, help="BASE+INC seconds a game")
    clock.add_argument("--margin", type=float, default=0.1,
                       help="seconds past the clock before a loss on time (default 0.1)")
    parser.add_argument("--openings", default="none",
                        help="none | all | plies=N | file=PATH (SGF or .hgf)")
    parser.add_argument("--seed", type=int, default=0, help="seed of random openings")
    parser.add_argument("--rule", choices=("official", "contest"), default="official")
    parser.add_argument("--swap", action="store_true", help="the pie rule")
    parser.add_argument("--concurrency", type=_positive_int, default=1)
    parser.add_argument("--sprt", nargs=4, metavar="KEY=VALUE",
                        help="elo0=.. elo1=.. alpha=.. beta=..")
    parser.add_argument("--records", metavar="DIR")
    parser.add_argument("--dat", metavar="FILE")
    parser.add_argument("--jsonl", metavar="FILE")
    parser.add_argument("--resume", action="store_true",
                        help="skip the games the --jsonl file holds")
    parser.add_argument("--quiet", action="store_true", help="no progress line")
    return parser


def _openings(text):
    if text in ("none", "all"):
        return text, 2, None
    key, sign, value = text.partition("=")
    if sign and key == "plies":
        try:
            plies = int(value)
        except ValueError:
            plies = 0
        if plies < 1:
            raise UsageError(f"--openings plies={value}: a positive whole number of plies")
        return "random", plies, None
    if sign and key == "file" and value:
        return "file", 2, value
    raise UsageError(f"--openings {text}: one of none, all, plies=N, file=PATH")


def _sprt(words):
    from ..match.stats import Sprt

    values = {}
    for word in words:
        key, sign, value = word.partition("=")
        if not sign or key not in ("elo0", "elo1", "alpha", "beta") or key in values:
            raise UsageError(f"--sprt {word}: give elo0=, elo1=, alpha=, beta= once each")
        try:
            values[key] = float(value)
        except ValueError:
            raise UsageError(f"--sprt {word}: not a number") from None
    try:
        return Sprt(**values)
    except ValueError as error:
        raise UsageError(f"--{error}") from None


def parse_arguments(argv):
    """The parsed arguments, with ``specs``, ``opening``/``plies``/
    ``openings_file`` and ``sprt`` filled in; UsageError for bad ones."""
    from ..match.engines import EngineSpec

    arguments = build_parser().parse_args(argv)
    if len(arguments.engine) < 2:
        raise UsageError("give at least two --engine cmd=... options")
    specs = []
    for words in arguments.engine:
        try:
            specs.append(EngineSpec.from_options(words))
        except (ValueError, TypeError) as error:
            raise UsageError(f"--engine: {error}") from None
    arguments.specs = specs
    if arguments.margin < 0:
        raise UsageError("--margin: not negative")
    arguments.opening, arguments.plies, arguments.openings_file = _openings(arguments.openings)
    arguments.sprt = _sprt(arguments.sprt) if arguments.sprt else None
    if arguments.sprt is not None and len(specs) != 2:
        raise UsageError("--sprt takes a match of two engines")
    if arguments.resume and not arguments.jsonl:
        raise UsageError("--resume needs --jsonl FILE (the games done are read from it)")
    return arguments


def _missing_engine(spec):
    """The reason an engine's program cannot be run, or None."""
    program = spec.command[0]
    if os.sep in program or (os.altsep and os.altsep in program):
        path = program if spec.cwd is None or os.path.isabs(program) else \
            os.path.join(spec.cwd, program)
        if not os.path.isfile(path):
            return f"{program}: no such file"
        if not os.access(path, os.X_OK):
            return f"{program}: not executable"
        return None
    if shutil.which(program) is None:
        return f"{program}: command not found"
    return None


def _fail(message, status):
    sys.stderr.write(f"{PROGRAM}: {message}\n")
    return status


def main(argv):
    try:
        arguments = parse_arguments(argv)
    except UsageError as error:
        return _fail(str(error), 2)
    except SystemExit as done:      # --help
        return done.code if isinstance(done.code, int) else 0
    for index, spec in enumerate(arguments.specs):
        missing = _missing_engine(spec)
        if missing is not None:
            return _fail(f"engine {spec.name or index + 1}: {missing}", 1)
    from ..match.output import Progress, summary
    from ..match.schedule import MatchError, Session

    base, increment = arguments.tc if arguments.tc is not None else (None, 0.0)
    progress = None
    if not arguments.quiet and sys.stderr is not None and sys.stderr.isatty():
        progress = Progress(0, sys.stderr)
    try:
        session = Session(arguments.game, arguments.specs, arguments.size,
                          games=arguments.games, rounds=arguments.rounds,
                          pairing=arguments.pairing, rule=arguments.rule, swap=arguments.swap,
                          per_move=arguments.st, base=base, increment=increment,
                          margin=arguments.margin, opening=arguments.opening,
                          plies=arguments.plies, openings_file=arguments.openings_file,
                          seed=arguments.seed, concurrency=arguments.concurrency,
                          sprt=arguments.sprt, records=arguments.records,
                          jsonl=arguments.jsonl, dat=arguments.dat, resume=arguments.resume,
                          progress=progress)
        if progress is not None:
            progress.total = len(session.planned)
        results = session.run()
    except MatchError as error:
        return _fail(str(error), 1)
    except KeyboardInterrupt:
        # The games done are in the output files: --resume goes on from them.
        return _fail("interrupted", 130)
    except OSError as error:
        return _fail(f"{error.filename or ''}: {error.strerror or error}".lstrip(": "), 1)
    sys.stdout.write(summary(results, session.names, arguments.sprt, session.verdict))
    sys.stdout.flush()
    return 0
