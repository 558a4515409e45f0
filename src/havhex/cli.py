"""Command line: ``havhex havannah|hex [FILE ...]`` prints the judge's output.

Every fault in the input is one line on stderr, ``havhex: FILE:LINE: reason``,
and exit status 1.  A file's output appears whole or not at all; with ``-o`` the
output file is written only when every input was judged.
"""
import os
import sys

from ._version import __version__
from .errors import InputError

GAMES = ("havannah", "hex")


def _build_parser():
    import argparse

    parser = argparse.ArgumentParser(
        prog="havhex",
        description="Fast, explainable judges for the connection games Havannah and Hex.",
    )
    parser.add_argument("--version", action="version", version=f"havhex {__version__}")
    games = parser.add_subparsers(dest="game", metavar="GAME")
    games.required = True
    for game, text in (
        ("havannah", "the first move that completes a ring, a bridge or a fork"),
        ("hex", "whether a Hex position is possible, and who has won"),
    ):
        judge = games.add_parser(game, help=text, description=f"Judge {game}: {text}.")
        judge.add_argument("files", nargs="*", metavar="FILE",
                           help="inputs in the judge format; none or '-' reads standard input")
        judge.add_argument("-o", "--output", metavar="FILE",
                           help="write the output here (only once every input was judged)")
        judge.add_argument("-j", "--jobs", type=int, default=1, metavar="N",
                           help="judge the cases of a file on N threads (0: all cores; default 1)")
        judge.add_argument("--format", choices=("text", "json"), default="text",
                           help="text: the judge's lines (default); json: one JSON object "
                                "per case with the witness of the answer")
        judge.add_argument("--quiet", action="store_true", help="no progress display")
    draw = games.add_parser(
        "draw", help="draw one case as an SVG picture (or as text)",
        description="Draw case N of an input: the board after its winning move "
                    "(or after all moves), with the winning structure highlighted.")
    draw.add_argument("draw_game", choices=GAMES, metavar="GAME", help="havannah or hex")
    draw.add_argument("file", metavar="FILE", help="input in the judge format ('-': stdin)")
    draw.add_argument("--case", type=int, default=1, metavar="N", help="case number (default 1)")
    draw.add_argument("-o", "--output", metavar="FILE", help="write the picture here")
    draw.add_argument("--text", action="store_true", help="print the board as text instead of SVG")
    return parser


def _threads(jobs):
    """Threads for ``-j``: 0 means every core; more threads than cores only
    cost memory (a table each), so the count is capped at the cores."""
    if jobs < 0:
        raise InputError(f"-j takes a number of threads >= 0, got {jobs}")
    cores = os.cpu_count() or 1
    return min(jobs, cores) if jobs else cores


# Inputs at least this large show a progress line when stderr is a terminal.
PROGRESS_THRESHOLD = 64 * 1024 * 1024


class _Progress:
    """A one-line progress display on stderr: cases judged and MB read."""

    def __init__(self, name, total_bytes, stream):
        self.name = name
        self.total_mb = total_bytes / 1e6
        self.stream = stream
        self.shown = False

    def __call__(self, bytes_read, cases_read, cases_judged):
        self.stream.write(f"\rhavhex: {self.name}: {cases_judged} of {cases_read} cases "
                          f"judged, {bytes_read / 1e6:.0f} of {self.total_mb:.0f} MB read")
        self.stream.flush()
        self.shown = True

    def close(self):
        if self.shown:
            self.stream.write("\r\033[K")
            self.stream.flush()


def _progress_for(file, quiet):
    """A progress display for a large file when stderr is a terminal, else None."""
    if quiet or file == "-" or not sys.stderr.isatty():
        return None
    try:
        size = os.stat(file).st_size
    except OSError:
        return None
    threshold = int(os.environ.get("HAVHEX_PROGRESS_MIN_BYTES", PROGRESS_THRESHOLD))
    return _Progress(file, size, sys.stderr) if size >= threshold else None


def _judge(game, files, threads, output_format="text", quiet=False):
    """For each input, in order, an iterator over its output text in pieces.

    The input is read and judged, and any fault raised, before the first
    piece; JSON witnesses are then built one case at a time."""
    import importlib

    module = importlib.import_module(f"havhex.{game}")
    for file in files or ["-"]:
        if output_format == "json":
            lazy = {"lazy_cells": True} if game == "havannah" else {}
            yield _json_lines(module.iter_explain_file(file, threads=threads, **lazy))
            continue
        progress = _progress_for(file, quiet)
        try:
            results = module.judge_file(file, threads=threads, progress=progress)
        finally:
            if progress is not None:
                progress.close()
        yield iter((module.format_results(results),))


def _json_lines(records):
    first = next(records, None)  # reads and judges the input, raising its fault
    if first is None:
        return
    yield from _json_pieces(first)
    yield "\n"
    for record in records:
        yield from _json_pieces(record)
        yield "\n"


def _json_pieces(value):
    """``json.dumps(value, separators=(", ", ": "))`` in pieces: a value with
    a ``json_pieces`` method (a ring's enclosed cells) writes itself, so no
    single string holds all of a huge witness."""
    import json

    if hasattr(value, "json_pieces"):
        yield from value.json_pieces()
    elif isinstance(value, dict):
        yield "{"
        separator = ""
        for key, item in value.items():
            yield separator + json.dumps(key) + ": "
            yield from _json_pieces(item)
            separator = ", "
        yield "}"
    else:
        yield json.dumps(value, separators=(", ", ": "))


def _write_stdout(outputs):
    """Each input's output in whole: spooled until its last piece is ready."""
    import shutil
    import tempfile

    for pieces in outputs:
        with tempfile.SpooledTemporaryFile(max_size=32 << 20, mode="w+", encoding="utf-8") as spool:
            for piece in pieces:
                spool.write(piece)
            spool.seek(0)
            shutil.copyfileobj(spool, sys.stdout)
            sys.stdout.flush()


def _write_atomically(path, chunks):
    if os.path.isdir(path):
        raise InputError("cannot write the output: it is a directory", path)
    directory = os.path.dirname(os.path.abspath(path))
    temporary = os.path.join(directory, f".{os.path.basename(path)}.havhex-{os.getpid()}.tmp")
    try:
        with open(temporary, "w", encoding="utf-8", newline="\n") as out:
            for pieces in chunks:
                for piece in pieces:
                    out.write(piece)
        os.replace(temporary, path)
    except BaseException:
        try:
            os.unlink(temporary)
        except OSError:
            pass
        raise


def main(argv=None):
    arguments = _build_parser().parse_args(argv)
    try:
        if arguments.game == "draw":
            from .draw import draw_command

            outputs = [iter((draw_command(arguments.draw_game, arguments.file, arguments.case,
                                          as_text=arguments.text),))]
        else:
            threads = _threads(arguments.jobs)
            outputs = _judge(arguments.game, arguments.files, threads, arguments.format,
                             arguments.quiet)
        if arguments.output:
            _write_atomically(arguments.output, outputs)
        else:
            _write_stdout(outputs)
    except InputError as exc:
        print(f"havhex: {exc}", file=sys.stderr)
        return 1
    except MemoryError:
        print("havhex: out of memory", file=sys.stderr)
        return 1
    except BrokenPipeError:
        # The reader of our output went away (``| head``): nothing to report.
        try:
            sys.stdout = open(os.devnull, "w")
        except OSError:
            pass
        return 1
    except OSError as exc:
        target = f"{exc.filename}: " if exc.filename else ""
        print(f"havhex: {target}{exc.strerror or exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130
    return 0
