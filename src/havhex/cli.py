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


USAGE = """\
usage: havhex [-h] [--version] GAME ...

Fast, explainable judges for the connection games Havannah and Hex.

games:
  havannah    the first move that completes a ring, a bridge or a fork
  hex         whether a Hex position is possible, and who has won
  draw        draw one case as an SVG picture (or as text)

Run "havhex GAME --help" for a game's options.
"""

JUDGE_USAGE = """\
usage: havhex {game} [-h] [-o FILE] [-j N] [--format {{text,json}}] [--quiet] [FILE ...]

Judge {game}: {text}.

positional arguments:
  FILE                inputs in the judge format; none or '-' reads standard input

options:
  -h, --help          show this help message and exit
  -o, --output FILE   write the output here (only once every input was judged)
  -j, --jobs N        judge the cases of a file on N threads (0: all cores; default 1)
  --format {{text,json}}
                      text: the judge's lines (default); json: one JSON object
                      per case with the witness of the answer
  --quiet             no progress display
"""

DRAW_USAGE = """\
usage: havhex draw [-h] [--case N] [-o FILE] [--text] GAME FILE

Draw case N of an input: the board after its winning move (or after all
moves), with the winning structure highlighted.

positional arguments:
  GAME                havannah or hex
  FILE                input in the judge format ('-': stdin)

options:
  -h, --help          show this help message and exit
  --case N            case number (default 1)
  -o, --output FILE   write the picture here
  --text              print the board as text instead of SVG
"""

GAME_TEXTS = {
    "havannah": "the first move that completes a ring, a bridge or a fork",
    "hex": "whether a Hex position is possible, and who has won",
}


class _Exit(Exception):
    """Leave with ``status`` after printing ``text`` (to stdout when 0)."""

    def __init__(self, status, text):
        super().__init__(text)
        self.status = status
        self.text = text


class _Arguments:
    game = None
    files = ()
    output = None
    jobs = 1
    format = "text"
    quiet = False
    draw_game = None
    file = None
    case = 1
    text = False


def _usage_error(usage, message):
    first_line = usage.splitlines()[0]
    return _Exit(2, f"{first_line}\nhavhex: error: {message}\n")


def _parse_arguments(argv):
    """The command line as ``_Arguments``; raises ``_Exit`` for help, the
    version and usage errors.  Hand-written: argparse (with ``re``) would
    double the start-up time of a judge run."""
    arguments = _Arguments()
    if not argv:
        raise _usage_error(USAGE, "the following arguments are required: GAME")
    head = argv[0]
    if head in ("-h", "--help"):
        raise _Exit(0, USAGE)
    if head == "--version":
        raise _Exit(0, f"havhex {__version__}\n")
    if head not in GAME_TEXTS and head != "draw":
        raise _usage_error(USAGE, f"argument GAME: invalid choice: {head!r} "
                                  f"(choose from 'havannah', 'hex', 'draw')")
    arguments.game = head
    usage = DRAW_USAGE if head == "draw" else JUDGE_USAGE.format(game=head, text=GAME_TEXTS.get(head))
    flags = {"--text", "-h", "--help"} if head == "draw" else {"--quiet", "-h", "--help"}
    valued = ({"--case", "-o", "--output"} if head == "draw"
              else {"-o", "--output", "-j", "--jobs", "--format"})
    positional = []
    rest = list(argv[1:])
    while rest:
        word = rest.pop(0)
        if word == "--":
            positional.extend(rest)
            break
        name, joined, value = word.partition("=") if word.startswith("--") else (word, "", "")
        if not joined and len(word) > 2 and word[0] == "-" and word[1] in "oj" and word[1] != "-":
            name, joined, value = word[:2], "=", word[2:]  # -jN, -oFILE
        if name in flags and not joined:
            if name in ("-h", "--help"):
                raise _Exit(0, usage)
            setattr(arguments, name[2:], True)
        elif name in valued:
            if not joined:
                if not rest:
                    raise _usage_error(usage, f"argument {name}: expected one argument")
                value = rest.pop(0)
            _set_option(arguments, name, value, usage)
        elif word.startswith("-") and word != "-":
            raise _usage_error(usage, f"unrecognized arguments: {word}")
        else:
            positional.append(word)
    if head == "draw":
        if len(positional) != 2:
            raise _usage_error(usage, "expected GAME and FILE")
        if positional[0] not in GAME_TEXTS:
            raise _usage_error(usage, f"argument GAME: invalid choice: {positional[0]!r} "
                                      f"(choose from 'havannah', 'hex')")
        arguments.draw_game, arguments.file = positional
    else:
        arguments.files = positional
    return arguments


def _set_option(arguments, name, value, usage):
    if name in ("-o", "--output"):
        arguments.output = value
    elif name == "--format":
        if value not in ("text", "json"):
            raise _usage_error(usage, f"argument --format: invalid choice: {value!r} "
                                      f"(choose from 'text', 'json')")
        arguments.format = value
    else:
        try:
            number = int(value)
        except ValueError:
            raise _usage_error(usage, f"argument {name}: invalid int value: {value!r}") from None
        if name == "--case":
            arguments.case = number
        else:
            arguments.jobs = number


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
    if game == "havannah":
        from . import havannah as module
    else:
        from . import hex as module
    for file in files or ["-"]:
        progress = _progress_for(file, quiet)
        if output_format == "json":
            lazy = {"lazy_cells": True} if game == "havannah" else {}
            yield _json_lines(module.iter_explain_file(file, threads=threads, progress=progress,
                                                       **lazy), progress)
            continue
        try:
            results = module.judge_file(file, threads=threads, progress=progress)
        finally:
            if progress is not None:
                progress.close()
        yield iter((module.format_results(results),))


def _json_lines(records, progress=None):
    try:
        first = next(records, None)  # reads and judges the input, raising its fault
    finally:
        if progress is not None:
            progress.close()
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


SPOOL_IN_MEMORY = 32 << 20


def _write_stdout(outputs):
    """Each input's output in whole: held until its last piece is ready, in
    memory up to SPOOL_IN_MEMORY characters, beyond that in a temporary file."""
    for pieces in outputs:
        held, size, spill = [], 0, None
        for piece in pieces:
            if spill is not None:
                spill.write(piece)
                continue
            held.append(piece)
            size += len(piece)
            if size > SPOOL_IN_MEMORY:
                import tempfile

                spill = tempfile.TemporaryFile(mode="w+", encoding="utf-8")
                spill.writelines(held)
                held = []
        if spill is None:
            sys.stdout.writelines(held)
        else:
            with spill:
                spill.seek(0)
                while True:
                    block = spill.read(1 << 20)
                    if not block:
                        break
                    sys.stdout.write(block)
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


class _Terminated(BaseException):
    """SIGTERM, raised like KeyboardInterrupt so that the same clean-up runs
    (no temporary file left, compiled work cancelled)."""


def _raise_terminated(signal_number, frame):
    raise _Terminated


def _catch_sigterm():
    """Turn SIGTERM into ``_Terminated`` while a judge runs; the handler it
    replaces (to restore), or None where none can be set (another thread).
    (``_signal``, not ``signal``: the latter imports ``enum``.)"""
    import _signal

    try:
        return _signal.signal(_signal.SIGTERM, _raise_terminated)
    except ValueError:
        return None


def main(argv=None):
    try:
        arguments = _parse_arguments(sys.argv[1:] if argv is None else list(argv))
    except _Exit as leave:
        (sys.stdout if leave.status == 0 else sys.stderr).write(leave.text)
        return leave.status
    previous_sigterm = _catch_sigterm()
    try:
        return _run(arguments)
    except _Terminated:
        return 128 + 15     # as a shell reports a process ended by SIGTERM
    finally:
        if previous_sigterm is not None:
            import _signal

            _signal.signal(_signal.SIGTERM, previous_sigterm)


def _run(arguments):
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
