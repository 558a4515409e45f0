"""Command line: ``havhex havannah|hex [FILE ...]`` prints the judge's output,
``havhex replay [FILE ...]`` what game records' games came to, ``havhex draw
GAME FILE`` the picture of a case (GAME ``record``: of a game record, or the
page stepping through it), ``havhex analyse [FILE ...]`` the search's review
of game records (made in ``analyse``), ``havhex solve GAME`` who wins
positions with perfect play (made in ``solve``); ``havhex gtp`` and ``havhex match``
run in their modules, ``gtp`` and ``match``.

Every fault in the input is one line on stderr, ``havhex: FILE:LINE: reason``,
and exit status 1; a usage error is the usage line and one error line, exit
status 2.  A file's output appears whole or not at all; with ``-o`` the output
file is written only when every input was judged.

The command line is read in ``arguments``, the output written in ``output``,
the progress line shown by ``progress``; this module runs the commands.
"""
import os
import sys

from ..errors import InputError
from .arguments import EarlyExit, parse_arguments
from .output import STDOUT_CLOSED, silence_stdout, write_output, write_stdout

# The annotations are for type checkers only, in quotes: the command line's
# start-up imports neither typing nor __future__.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from types import FrameType, ModuleType
    from typing import Any, Callable, Iterable, Iterator, List, Optional, Sequence, Union

    from ..records.run import Summary
    from .arguments import Arguments
    from .progress import Progress

__all__ = ["main"]

# The name of standard input in messages, in drawings and in JSON records.
STDIN_NAME = "<stdin>"


def _input_name(file: str) -> str:
    return STDIN_NAME if file == "-" else file


def _threads(jobs: int) -> int:
    """Threads for ``-j`` (a count >= 0, as the parser checked): 0 means every
    core; more threads than cores only cost memory (a table each), so the
    count is capped at the cores."""
    cores = os.cpu_count() or 1
    return min(jobs, cores) if jobs else cores


def _judge(game: str, files: "List[str]", threads: int, output_format: str = "text",
           quiet: bool = False) -> "Iterator[Iterator[str]]":
    """For each input, in order, an iterator over its output text in pieces.

    The input is read and judged, and any fault raised, before the first
    piece; JSON witnesses are then built one case at a time (a witness grows
    with the stones of its case, so a piece is one case's line)."""
    from ..games import judge_module

    module = judge_module(game)
    # The progress line needs a terminal: off one, its module is not loaded.
    terminal = not quiet and sys.stderr is not None and sys.stderr.isatty()
    files = files or ["-"]
    if threads > 1 and len(files) > 1 and (output_format == "text"
                                           or module.FILE_JUDGE.explains_side_by_side):
        yield from _judged_side_by_side(module, files, threads, output_format, terminal)
        return
    for file in files:
        progress = None
        if terminal and file != "-":
            from .progress import progress_for

            progress = progress_for(file)
        if output_format == "json":
            explanations = module.iter_explain_file(file, threads=threads, progress=progress)
            yield _json_lines(_input_name(file), explanations, progress)
            continue
        try:
            results = module.judge_file(file, threads=threads, progress=progress)
        finally:
            if progress is not None:
                progress.close()
        yield iter((module.format_results(results),))


def _judged_side_by_side(module: "ModuleType", files: "List[str]", threads: int,
                         output_format: str, terminal: bool) -> "Iterator[Iterator[str]]":
    """``_judge``'s outputs for many files with ``threads`` > 1: files side
    by side, each on a thread of its own (its own cases in turn), as two
    processes would judge them, without the joins of one file judged on
    every thread (docs/performance.md, "Parallel runs")."""
    progress_for: "Optional[Callable[[str], Optional[Progress]]]" = None
    if terminal:
        from .progress import progress_for as display_for

        def progress_for(file: str) -> "Optional[Progress]":
            return None if file == "-" else display_for(file)

    explain = output_format == "json"
    extra = {"explain": True} if explain else {}
    outputs = module.FILE_JUDGE.files(files, threads, progress_for=progress_for, **extra)
    try:
        for file, output in zip(files, outputs):
            if explain:
                yield _json_lines(_input_name(file), output)
            else:
                yield iter((module.format_results(output),))
    finally:
        outputs.close()


def _json_lines(source: str, explanations: "Iterator[Any]",
                progress: "Optional[Progress]" = None) -> "Iterator[str]":
    from .._explanation import json_record

    try:
        first = next(explanations, None)  # reads and judges the input, raising its fault
    finally:
        if progress is not None:
            progress.close()
    if first is None:
        return
    yield json_record(source, first)
    for explanation in explanations:
        yield json_record(source, explanation)


def _draw(arguments: "Arguments") -> str:
    from ..draw import draw_command, draw_record

    if TYPE_CHECKING:
        # draw requires them, and its --record has a default.
        assert arguments.game is not None and arguments.file is not None
        assert arguments.record is not None

    if arguments.game == "record":
        return draw_record(arguments.file, arguments.record, arguments.move,
                           html=arguments.html, rule=arguments.rule, game=arguments.record_game,
                           max_cells=arguments.max_cells)
    return draw_command(arguments.game, arguments.file, arguments.case, as_text=arguments.text)


def _complain(text: "Union[str, BaseException]") -> None:
    """``havhex: text`` on stderr, when there is a stderr to write to."""
    if sys.stderr is None:
        return
    try:
        sys.stderr.write(f"havhex: {text}\n")
        sys.stderr.flush()
    except (OSError, ValueError):
        pass


class _Terminated(BaseException):
    """SIGTERM, raised like KeyboardInterrupt so that the same clean-up runs
    (no temporary file left, compiled work cancelled)."""


def _raise_terminated(signal_number: int, frame: "Optional[FrameType]") -> None:
    raise _Terminated


def _catch_sigterm() -> "Any":
    """Turn SIGTERM into ``_Terminated`` while a judge runs; the handler it
    replaces (to restore), or None where none can be set (another thread).
    (``_signal``, not ``signal``: the latter imports ``enum``.)"""
    # typeshed has no stub for _signal (signal's compiled core).
    import _signal  # type: ignore[import-not-found]

    try:
        return _signal.signal(_signal.SIGTERM, _raise_terminated)
    except ValueError:
        return None


def _leave(leave: EarlyExit) -> int:
    """The exit status of ``EarlyExit``, its text written: help and the
    version to stdout, a usage error to stderr."""
    if leave.status != 0:
        if sys.stderr is not None:
            sys.stderr.write(leave.text)
        return leave.status
    if sys.stdout is None:
        _complain(STDOUT_CLOSED)
        return 1
    sys.stdout.write(leave.text)
    return 0


def main(argv: "Optional[Sequence[str]]" = None) -> int:
    """Run the command line ``argv`` (default: ``sys.argv[1:]``); returns the
    exit status."""
    try:
        arguments = parse_arguments(sys.argv[1:] if argv is None else list(argv))
    except EarlyExit as leave:
        return _leave(leave)
    for warning in arguments.warnings:
        _complain(f"warning: {warning}")
    if arguments.command == "gtp":
        from .gtp import run

        return run(arguments)
    if arguments.command == "match":
        from .match import run as run_match

        return run_match(arguments)
    if arguments.output is None and sys.stdout is None:
        # Started with descriptor 1 closed (``>&-``): nothing to judge for.
        _complain(STDOUT_CLOSED)
        return 1
    previous_sigterm = _catch_sigterm()
    try:
        return _run(arguments)
    except _Terminated:
        return 128 + 15     # as a shell reports a process ended by SIGTERM
    finally:
        if previous_sigterm is not None:
            import _signal

            _signal.signal(_signal.SIGTERM, previous_sigterm)
        if argv is None and (getattr(arguments, "scheduler", None) is not None
                             or getattr(arguments, "cluster", None) is not None):
            # The program ends here: the interpreter's last collection would
            # walk every object of Dask's modules, which slows every exit (a
            # stop after Ctrl-C too); frozen objects are left to the exit.
            import gc

            gc.freeze()


def _run(arguments: "Arguments") -> int:
    outputs: "Iterable[Iterator[str]]"
    try:
        summary = None
        if (arguments.command in ("replay", "draw", "analyse", "solve")
                and arguments.max_cells is None):
            from ..records.game import MAX_CELLS

            arguments.max_cells = MAX_CELLS
        if arguments.command == "draw":
            outputs = [iter((_draw(arguments),))]
        elif arguments.command == "analyse":
            from .analyse import analyse_outputs

            outputs = analyse_outputs(arguments)
        elif arguments.command == "solve":
            from .solve import solve_outputs

            outputs = solve_outputs(arguments)
        elif arguments.scheduler is not None or arguments.cluster is not None:
            from ..records.run import Summary
            from .cluster import cli_outputs

            summary = Summary() if arguments.command == "replay" else None
            outputs = cli_outputs(arguments, summary)
        elif arguments.command == "replay":
            from ..records.run import Summary, replay_outputs

            summary = Summary()
            outputs = replay_outputs(arguments.files, arguments.rule, arguments.format,
                                     _threads(arguments.jobs), summary, arguments.record_game,
                                     arguments.max_cells)
        else:
            outputs = _judge(arguments.command, arguments.files, _threads(arguments.jobs),
                             arguments.format, arguments.quiet)
        try:
            if arguments.output is not None:
                write_output(arguments.output, outputs)
            else:
                write_stdout(outputs)
        finally:
            # A fault raised from one file's pieces leaves the generator of
            # outputs suspended, holding replay's worker processes: closed
            # here, not at the interpreter's exit, where multiprocessing
            # would end them with SIGTERM.
            close = getattr(outputs, "close", None)
            if close is not None:
                close()
        if summary is not None and not arguments.quiet and sys.stderr is not None:
            sys.stderr.write(summary.line() + "\n")
    except InputError as exc:
        _complain(exc)
        return 1
    except ImportError as exc:
        # --scheduler or --cluster without the dask extra installed.
        _complain(exc)
        return 1
    except MemoryError:
        _complain("out of memory")
        return 1
    except BrokenPipeError:
        # The reader of our output went away (``| head``): nothing to report,
        # and the same status whatever the mode and however far it read.
        if arguments.output is None:
            silence_stdout()
        return 1
    except OSError as exc:
        target = f"{exc.filename}: " if exc.filename else ""
        _complain(f"{target}{exc.strerror or exc}")
        return 1
    except KeyboardInterrupt:
        return 130
    return 0
