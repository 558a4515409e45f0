"""``havhex match hex|havannah ...``: engines against each other, refereed
by havhex (cutechess-cli's shape where it fits).

    havhex match hex --size 11 --engine cmd="morat-hex" name=A \\
        --engine cmd="havhex gtp hex" name=B --games 100 --st 0.5 \\
        --concurrency 2 --openings all --records games/ --dat match.dat \\
        --jsonl match.jsonl [--rule official|contest] [--swap] \\
        [--sprt elo0=0 elo1=30 alpha=0.05 beta=0.05] [--resume]

Exit status 0 when the match ran, whatever its games' results; a usage
error is the usage line, one error line and status 2 (its options are read
with every other command's, in ``arguments``); an engine that cannot be
found or started, an openings file that cannot be read, an output that
cannot be written or a --resume of another match's file, one line and
status 1.  SIGINT and SIGTERM kill the engines (each runs in its own
process group, which no terminal signal reaches) and end the match with
status 130 and 143; the games done are in the output files.
"""
import os
import shutil
import signal
import sys

__all__ = ["run"]

# The annotations are for type checkers only, in quotes, as in the modules
# a judge run loads.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Optional

    from ..match.engines import EngineSpec
    from .arguments import Arguments

PROGRAM = "havhex match"


def _missing_engine(spec: "EngineSpec") -> "Optional[str]":
    """The reason an engine's program cannot be run, or None."""
    if TYPE_CHECKING:
        assert spec.command is not None     # EngineSpec.from_options requires cmd=
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


def _fail(message: str, status: int) -> int:
    sys.stderr.write(f"{PROGRAM}: {message}\n")
    return status


class _Terminated(Exception):
    """SIGTERM, raised in the main thread, so that the match stops as on
    Ctrl-C: engines killed, files closed."""


def _terminated(number: int, frame: object) -> None:
    raise _Terminated()


def run(arguments: "Arguments") -> int:
    """Play the match of the parsed command line ``arguments``; the exit
    status.  With ``--quiet`` nothing is printed unless something fails."""
    for index, spec in enumerate(arguments.specs):
        missing = _missing_engine(spec)
        if missing is not None:
            return _fail(f"engine {spec.name or index + 1}: {missing}", 1)
    from ..match.output import Progress

    progress = None
    if not arguments.quiet and sys.stderr is not None and sys.stderr.isatty():
        progress = Progress(0, sys.stderr)
    previous = None
    try:
        previous = signal.signal(signal.SIGTERM, _terminated)
    except ValueError:
        pass    # not the main thread (an embedding program's): its own signals
    try:
        return _play(arguments, progress)
    finally:
        if previous is not None:
            signal.signal(signal.SIGTERM, previous)


def _play(arguments: "Arguments", progress: "Optional[Any]") -> int:
    from ..match.output import summary
    from ..match.schedule import MatchError, Session

    if TYPE_CHECKING:
        # The parser requires GAME and --size for a match; --seed is 0 unless given.
        assert arguments.game is not None and arguments.size is not None
        assert arguments.seed is not None
    base, increment = arguments.tc if arguments.tc is not None else (None, 0.0)
    opening, plies, openings_file = arguments.openings
    try:
        session = Session(arguments.game, arguments.specs, arguments.size,
                          games=arguments.games, rounds=arguments.rounds,
                          pairing=arguments.pairing, rule=arguments.rule, swap=arguments.swap,
                          per_move=arguments.st, base=base, increment=increment,
                          margin=arguments.margin, opening=opening, plies=plies,
                          openings_file=openings_file,
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
    except _Terminated:
        return _fail("terminated", 143)
    except OSError as error:
        return _fail(f"{error.filename or ''}: {error.strerror or error}".lstrip(": "), 1)
    if not arguments.quiet:
        sys.stdout.write(summary(results, session.names, arguments.sprt, session.verdict))
        sys.stdout.flush()
    return 0
