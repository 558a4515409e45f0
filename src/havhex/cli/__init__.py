"""Command line: ``havhex havannah|hex [FILE ...]`` prints the judge's output.

Every fault in the input is one line on stderr, ``havhex: FILE:LINE: reason``,
and exit status 1.  A file's output appears whole or not at all; with ``-o`` the
output file is written only when every input was judged.
"""
import os
import sys

from .._version import __version__
from ..errors import InputError

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
moves), with the winning structure highlighted.  Limits: Hex N <= 200 (text
view N <= 40); Havannah text view S <= 20, SVG any S with up to 100000
stones drawn.  A case beyond them is refused before its moves are read.

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
    if quiet or file == "-" or sys.stderr is None or not sys.stderr.isatty():
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
    piece; JSON witnesses are then built one case at a time (a witness grows
    with the stones of its case, so a piece is one case's line)."""
    if game == "havannah":
        from .. import havannah as module
    else:
        from .. import hex as module
    for file in files or ["-"]:
        progress = _progress_for(file, quiet)
        if output_format == "json":
            yield _json_lines(module.iter_explain_file(file, threads=threads, progress=progress),
                              progress)
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
    yield _json_line(first)
    for record in records:
        yield _json_line(record)


def _json_line(value):
    """One JSON Lines line: ``value`` with the separators of the README."""
    import json

    return json.dumps(value, separators=(", ", ": ")) + "\n"


SPOOL_IN_MEMORY = 32 << 20
WRITE_BLOCK = 1 << 20  # characters encoded and written at a time


class _Spool:
    """Text held until it is complete: in memory up to SPOOL_IN_MEMORY
    characters, beyond that in an anonymous temporary file."""

    def __init__(self):
        self.held = []
        self.size = 0
        self.spill = None

    def extend(self, pieces):
        for piece in pieces:
            if self.spill is not None:
                self.spill.write(piece)
                continue
            self.held.append(piece)
            self.size += len(piece)
            if self.size > SPOOL_IN_MEMORY:
                import tempfile

                self.spill = tempfile.TemporaryFile(mode="w+", encoding="utf-8")
                self.spill.writelines(self.held)
                self.held = []

    def blocks(self):
        """The text in blocks of about WRITE_BLOCK characters."""
        if self.spill is not None:
            self.spill.seek(0)
            while True:
                block = self.spill.read(WRITE_BLOCK)
                if not block:
                    return
                yield block
        batch, size = [], 0
        for piece in self.held:
            if len(piece) >= WRITE_BLOCK:
                if batch:
                    yield "".join(batch)
                    batch, size = [], 0
                for start in range(0, len(piece), WRITE_BLOCK):
                    yield piece[start:start + WRITE_BLOCK]
                continue
            batch.append(piece)
            size += len(piece)
            if size >= WRITE_BLOCK:
                yield "".join(batch)
                batch, size = [], 0
        if batch:
            yield "".join(batch)

    def close(self):
        self.held = []
        if self.spill is not None:
            self.spill.close()
            self.spill = None


def _write_all(descriptor, blocks, encoding="utf-8", errors="strict"):
    """Write every block to ``descriptor``.  A loop over ``os.write``: after a
    partial write (the reader of a pipe went away mid-write) the buffered
    file objects drop the rest without an error, and the next write is the
    one that reports the broken pipe."""
    for block in blocks:
        data = memoryview(block.encode(encoding, errors))
        while data:
            data = data[os.write(descriptor, data):]


def _write_stdout(outputs):
    """Each input's output in whole: held until its last piece is ready
    (see ``_Spool``), then written to standard output."""
    stream = sys.stdout
    try:
        # Elsewhere the stream's own newline translation is needed.
        descriptor = stream.fileno() if os.name == "posix" else None
    except (AttributeError, OSError, ValueError):
        descriptor = None  # a stand-in without a descriptor (tests capturing output)
    for pieces in outputs:
        spool = _Spool()
        try:
            spool.extend(pieces)  # judges the input: its faults pass as they are
            try:
                if descriptor is None:
                    stream.writelines(spool.blocks())
                    stream.flush()
                else:
                    stream.flush()
                    _write_all(descriptor, spool.blocks(), stream.encoding or "utf-8",
                               stream.errors or "strict")
            except BrokenPipeError:
                raise
            except OSError as exc:  # /dev/full, a descriptor closed meanwhile...
                raise InputError(f"cannot write the output: {exc.strerror or exc}") from None
        finally:
            spool.close()


def _output_error(path, exc):
    """The error for ``exc`` (an OSError) met while writing ``path``: it
    names the user's path, never a temporary file's."""
    return InputError(f"cannot write the output: {exc.strerror or exc}", path)


def _descriptor_named(path):
    """N when ``path`` names one of this process's open descriptors
    (``/dev/fd/N``, ``/proc/self/fd/N``, or a link to one such as
    ``/dev/stdout``), else None.  Writing there means writing to descriptor N
    as it is, at its offset and in its append mode, never replacing what it
    refers to."""
    own = (f"/proc/{os.getpid()}/fd", "/proc/self/fd", "/proc/thread-self/fd", "/dev/fd")
    current = os.path.abspath(path)
    for _ in range(40):  # the kernel's limit on links followed
        folder, name = os.path.split(current)
        if folder in own and name.isdigit():
            return int(name)
        try:
            link = os.readlink(current)
        except OSError:
            return None
        current = os.path.normpath(os.path.join(folder, link))
    return None


def _temporary_name(name):
    """An unpredictable name for the temporary file beside ``name``."""
    return f".{name[:200]}.havhex-{os.urandom(8).hex()}.tmp"


def _create_temporary(directory, name, mode):
    """Create a new file in ``directory`` under a fresh name, exclusively:
    O_EXCL fails on any existing entry, a planted link included."""
    flags = (os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
             | getattr(os, "O_CLOEXEC", 0))
    for _ in range(100):
        temporary = os.path.join(directory, _temporary_name(name))
        try:
            return os.open(temporary, flags, mode), temporary
        except FileExistsError:
            continue
    raise FileExistsError(17, "no free name for a temporary file")


def _link_target(path):
    """``path`` with the links at its end followed, one by one, as opening
    it would follow them, refusing as the kernel does (protected_symlinks)
    a link in a sticky folder anyone may write to, such as /tmp, that
    belongs neither to this user nor to the folder's owner: someone else may
    have planted it there."""
    import stat

    current = path
    for _ in range(40):  # the kernel's limit on links followed
        try:
            info = os.lstat(current)
        except FileNotFoundError:
            return current
        if not stat.S_ISLNK(info.st_mode):
            return current
        folder = os.path.dirname(current) or "."
        shared = os.stat(folder)
        sticky_and_open = stat.S_ISVTX | stat.S_IWOTH
        if ((shared.st_mode & sticky_and_open) == sticky_and_open
                and info.st_uid not in (os.geteuid(), shared.st_uid)):
            raise PermissionError(13, "a link in a shared folder that belongs to someone else")
        current = os.path.join(folder, os.readlink(current))
    raise OSError(40, os.strerror(40))


def _replace_file(path, pieces, existing):
    """Write ``pieces`` to a new file beside ``path``'s target and rename it
    over the target: readers see the old file or the new one, never a part.
    A link to a file stays a link and its target is replaced.  ``existing``
    is the target's ``os.stat`` (its mode and owner are kept) or None (a new
    file gets the mode a plain open gives: 0666 less the umask)."""
    import stat

    try:
        target = _link_target(path)
    except OSError as exc:
        raise _output_error(path, exc) from None
    directory, name = os.path.split(os.path.abspath(target))
    try:
        # 0600 while an existing file's mode is not yet applied: the text
        # is never readable by more users than the old file allowed.
        descriptor, temporary = _create_temporary(directory, name,
                                                  0o666 if existing is None else 0o600)
    except OSError as exc:
        raise _output_error(path, exc) from None
    try:
        with open(descriptor, "w", encoding="utf-8", newline="\n") as out:
            for piece in pieces:  # judges the inputs: their faults pass as they are
                try:
                    out.write(piece)
                except OSError as exc:
                    raise _output_error(path, exc) from None
            try:
                out.flush()
                if existing is not None and hasattr(os, "fchmod"):
                    ours = os.fstat(descriptor)
                    if (existing.st_uid, existing.st_gid) != (ours.st_uid, ours.st_gid):
                        try:
                            os.fchown(descriptor, existing.st_uid, existing.st_gid)
                        except OSError:
                            pass  # only root may give a file away: it stays ours
                    # After fchown, which clears set-user-ID and set-group-ID bits.
                    os.fchmod(descriptor, stat.S_IMODE(existing.st_mode))
                os.fsync(descriptor)
            except OSError as exc:
                raise _output_error(path, exc) from None
        try:
            os.replace(temporary, target)
        except OSError as exc:
            raise _output_error(path, exc) from None
    except BaseException:
        try:
            os.unlink(temporary)
        except OSError:
            pass
        raise


def _write_into(path, descriptor, spool):
    try:
        _write_all(descriptor, spool.blocks())
    except BrokenPipeError:
        raise  # a FIFO's reader went away, as with ``| head``: quiet
    except OSError as exc:
        raise _output_error(path, exc) from None
    finally:
        os.close(descriptor)


def _write_output(path, outputs):
    """The ``-o`` output: written only once every input was judged.

    A regular file (or a link to one) is replaced atomically, keeping its mode
    and owner.  Anything else that exists (a device such as /dev/null, a
    FIFO, a terminal, a descriptor such as /dev/stdout) is written into as it
    is, once the whole text is ready, never replaced."""
    import stat

    descriptor = _descriptor_named(path)
    if descriptor is not None:
        try:
            if stat.S_ISDIR(os.fstat(descriptor).st_mode):
                raise IsADirectoryError(21, "it is a directory")
        except OSError as exc:  # a closed descriptor: fail before judging
            raise _output_error(path, exc) from None
        spool = _Spool()
        try:
            for pieces in outputs:
                spool.extend(pieces)
            try:
                copy = os.dup(descriptor)
            except OSError as exc:
                raise _output_error(path, exc) from None
            _write_into(path, copy, spool)
        finally:
            spool.close()
        return
    try:
        existing = os.stat(path)
    except FileNotFoundError:
        existing = None
    except OSError as exc:
        raise _output_error(path, exc) from None
    if existing is not None and stat.S_ISDIR(existing.st_mode):
        raise InputError("cannot write the output: it is a directory", path)
    if existing is None or stat.S_ISREG(existing.st_mode):
        _replace_file(path, (piece for pieces in outputs for piece in pieces), existing)
        return
    spool = _Spool()
    try:
        for pieces in outputs:
            spool.extend(pieces)
        # No O_CREAT: the node exists; no O_TRUNC: a device or FIFO has
        # nothing to truncate, and some refuse it.  (A FIFO waits here for
        # its reader, as a shell redirection does.)
        try:
            descriptor = os.open(path, os.O_WRONLY | getattr(os, "O_NOCTTY", 0)
                                 | getattr(os, "O_CLOEXEC", 0))
        except OSError as exc:
            raise _output_error(path, exc) from None
        now = os.fstat(descriptor)
        if stat.S_ISREG(now.st_mode):
            # Replaced by a regular file since it was looked at: replace that.
            os.close(descriptor)
            _replace_file(path, spool.blocks(), now)
        else:
            _write_into(path, descriptor, spool)
    finally:
        spool.close()


STDOUT_CLOSED = "cannot write the output: standard output is closed"


def _complain(text):
    """``havhex: text`` on stderr, when there is a stderr to write to."""
    if sys.stderr is None:
        return
    try:
        sys.stderr.write(f"havhex: {text}\n")
        sys.stderr.flush()
    except (OSError, ValueError):
        pass


def _silence_stdout():
    """After a broken pipe: send whatever is still to be flushed at exit to
    /dev/null, so that the exit itself reports no second error."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (AttributeError, OSError, ValueError):
        pass


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
        if leave.status != 0:
            if sys.stderr is not None:
                sys.stderr.write(leave.text)
            return leave.status
        if sys.stdout is None:
            _complain(STDOUT_CLOSED)
            return 1
        sys.stdout.write(leave.text)
        return 0
    if not arguments.output and sys.stdout is None:
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


def _run(arguments):
    try:
        if arguments.game == "draw":
            from ..draw import draw_command

            outputs = [iter((draw_command(arguments.draw_game, arguments.file, arguments.case,
                                          as_text=arguments.text),))]
        else:
            threads = _threads(arguments.jobs)
            outputs = _judge(arguments.game, arguments.files, threads, arguments.format,
                             arguments.quiet)
        if arguments.output:
            _write_output(arguments.output, outputs)
        else:
            _write_stdout(outputs)
    except InputError as exc:
        _complain(exc)
        return 1
    except MemoryError:
        _complain("out of memory")
        return 1
    except BrokenPipeError:
        # The reader of our output went away (``| head``): nothing to report,
        # and the same status whatever the mode and however far it read.
        if not arguments.output:
            _silence_stdout()
        return 1
    except OSError as exc:
        target = f"{exc.filename}: " if exc.filename else ""
        _complain(f"{target}{exc.strerror or exc}")
        return 1
    except KeyboardInterrupt:
        return 130
    return 0
