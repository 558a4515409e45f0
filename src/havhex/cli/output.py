"""Where the output goes: standard output, or the ``-o`` file, written only
once the text is complete.

A regular file is replaced atomically (a new file beside it, renamed over
it; the new file has no name until it is complete where the system allows,
so that nothing is left behind whatever ends the run); anything else that exists (a device, a FIFO, an open descriptor such as
/dev/stdout) is written into as it is.  Every error names the user's path,
never a temporary file's.

Text is encoded with ``surrogateescape``: a file name that is not valid in
the locale's encoding (read from the command line with that error handler)
is written as the bytes it is made of.
"""
import os
import sys

from ..errors import InputError

# The annotations are for type checkers only, in quotes: the command line's
# start-up imports neither typing nor __future__.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import IO, Iterable, Iterator, List, Optional, Tuple

__all__ = ["STDOUT_CLOSED", "Spool", "write_all", "write_stdout", "write_output",
           "replace_file", "descriptor_named", "temporary_name", "create_temporary",
           "link_target", "silence_stdout"]

SPOOL_IN_MEMORY = 32 << 20
WRITE_BLOCK = 1 << 20  # characters encoded and written at a time


class Spool:
    """Text held until it is complete: in memory up to SPOOL_IN_MEMORY
    characters, beyond that in an anonymous temporary file."""

    def __init__(self) -> None:
        self.held: "List[str]" = []
        self.size = 0
        self.spill: "Optional[IO[str]]" = None

    def extend(self, pieces: "Iterable[str]") -> None:
        for piece in pieces:
            if self.spill is not None:
                self.spill.write(piece)
                continue
            self.held.append(piece)
            self.size += len(piece)
            if self.size > SPOOL_IN_MEMORY:
                import tempfile

                self.spill = tempfile.TemporaryFile(mode="w+", encoding="utf-8",
                                                    errors="surrogateescape")
                self.spill.writelines(self.held)
                self.held = []

    def blocks(self) -> "Iterator[str]":
        """The text in blocks of about WRITE_BLOCK characters."""
        if self.spill is not None:
            self.spill.seek(0)
            while True:
                block = self.spill.read(WRITE_BLOCK)
                if not block:
                    return
                yield block
        batch: "List[str]" = []
        size = 0
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

    def close(self) -> None:
        self.held = []
        if self.spill is not None:
            self.spill.close()
            self.spill = None


def write_all(descriptor: int, blocks: "Iterable[str]", encoding: str = "utf-8",
              errors: str = "surrogateescape") -> None:
    """Write every block to ``descriptor``.  A loop over ``os.write``: after a
    partial write (the reader of a pipe went away mid-write) the buffered
    file objects drop the rest without an error, and the next write is the
    one that reports the broken pipe."""
    for block in blocks:
        data = memoryview(block.encode(encoding, errors))
        while data:
            data = data[os.write(descriptor, data):]


def write_stdout(outputs: "Iterable[Iterable[str]]") -> None:
    """Each input's output in whole: held until its last piece is ready
    (see ``Spool``), then written to standard output."""
    stream = sys.stdout
    try:
        # Elsewhere the stream's own newline translation is needed.
        descriptor = stream.fileno() if os.name == "posix" else None
    except (AttributeError, OSError, ValueError):
        descriptor = None  # a stand-in without a descriptor (tests capturing output)
    for pieces in outputs:
        spool = Spool()
        try:
            spool.extend(pieces)  # judges the input: its faults pass as they are
            try:
                if descriptor is None:
                    stream.writelines(spool.blocks())
                    stream.flush()
                else:
                    stream.flush()
                    errors = stream.errors or "strict"
                    write_all(descriptor, spool.blocks(), stream.encoding or "utf-8",
                              "surrogateescape" if errors == "strict" else errors)
            except BrokenPipeError:
                raise
            except OSError as exc:  # /dev/full, a descriptor closed meanwhile...
                raise InputError(f"cannot write the output: {exc.strerror or exc}") from None
        finally:
            spool.close()


def _output_error(path: str, exc: OSError) -> InputError:
    """The error for ``exc`` (an OSError) met while writing ``path``: it
    names the user's path, never a temporary file's."""
    return InputError(f"cannot write the output: {exc.strerror or exc}", path)


def descriptor_named(path: str) -> "Optional[int]":
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


def temporary_name(name: str) -> str:
    """An unpredictable name for the temporary file beside ``name``."""
    return f".{name[:200]}.havhex-{os.urandom(8).hex()}.tmp"


def create_temporary(directory: str, name: str, mode: int) -> "Tuple[int, str]":
    """Create a new file in ``directory`` under a fresh name, exclusively:
    O_EXCL fails on any existing entry, a planted link included."""
    flags = (os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
             | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0))
    for _ in range(100):
        temporary = os.path.join(directory, temporary_name(name))
        try:
            return os.open(temporary, flags, mode), temporary
        except FileExistsError:
            continue
    raise FileExistsError(17, "no free name for a temporary file")


def link_target(path: str) -> str:
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


def replace_file(path: str, pieces: "Iterable[str]",
                 existing: "Optional[os.stat_result]") -> None:
    """Write ``pieces`` to a new file beside ``path``'s target and rename it
    over the target: readers see the old file or the new one, never a part.
    A link to a file stays a link and its target is replaced.  ``existing``
    is the target's ``os.stat`` (its mode and owner are kept) or None (a new
    file gets the mode a plain open gives: 0666 less the umask)."""
    import stat

    try:
        target = link_target(path)
    except OSError as exc:
        raise _output_error(path, exc) from None
    directory, name = os.path.split(os.path.abspath(target))
    # 0600 while an existing file's mode is not yet applied: the text is
    # never readable by more users than the old file allowed.
    mode = 0o666 if existing is None else 0o600
    descriptor, temporary = _unnamed_file(directory, mode), None
    if descriptor is None:
        try:
            descriptor, temporary = create_temporary(directory, name, mode)
        except OSError as exc:
            raise _output_error(path, exc) from None
    try:
        with open(descriptor, "w", encoding="utf-8", errors="surrogateescape",
                  newline="\n") as out:
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
                if temporary is None:
                    temporary = _name_unnamed(descriptor, directory, name)
            except OSError as exc:
                raise _output_error(path, exc) from None
        try:
            os.replace(temporary, target)
        except OSError as exc:
            raise _output_error(path, exc) from None
    except BaseException:
        if temporary is not None:
            try:
                os.unlink(temporary)
            except OSError:
                pass
        raise


def _unnamed_file(directory: str, mode: int) -> "Optional[int]":
    """A new file in ``directory`` that has no name yet (Linux O_TMPFILE):
    if the run ends before it is complete, even by ``kill -9``, the system
    frees it and nothing is left behind.  None where this cannot be done
    (another system, a file system without it, no /proc to name it through
    later): the caller makes a named temporary file instead."""
    flag = getattr(os, "O_TMPFILE", None)
    if flag is None or not os.path.isdir("/proc/self/fd"):
        return None
    try:
        # Read and write: read back should it have to be copied (see _name_unnamed).
        return os.open(directory, flag | os.O_RDWR | getattr(os, "O_CLOEXEC", 0), mode)
    except OSError:
        return None


def _name_unnamed(descriptor: int, directory: str, name: str) -> str:
    """Give the complete unnamed file a temporary name beside ``name`` (a
    link cannot replace a file; the rename that follows does), and return
    that name.  Where the system refuses to name it, its text is copied to
    a named temporary file."""
    for _ in range(100):
        temporary = os.path.join(directory, temporary_name(name))
        try:
            _link_descriptor(descriptor, temporary)
            return temporary
        except FileExistsError:
            continue
        except OSError:
            break
    return _copy_unnamed(descriptor, directory, name)


def _link_descriptor(descriptor: int, path: str) -> None:
    """linkat(2) of an open file to ``path``: by its descriptor
    (AT_EMPTY_PATH, which needs Linux 6.10 or a privilege), else through
    /proc/self/fd (which some containers refuse)."""
    import ctypes

    try:
        libc = ctypes.CDLL(None, use_errno=True)
        at_fdcwd, at_empty_path = -100, 0x1000
        if libc.linkat(descriptor, b"", at_fdcwd, os.fsencode(path), at_empty_path) == 0:
            return
        number = ctypes.get_errno()
        if number == 17:  # EEXIST
            raise FileExistsError(number, os.strerror(number))
    except AttributeError:
        pass
    os.link(f"/proc/self/fd/{descriptor}", path, follow_symlinks=True)


def _copy_unnamed(descriptor: int, directory: str, name: str) -> str:
    import stat

    copy, temporary = create_temporary(directory, name, 0o600)
    try:
        try:
            os.lseek(descriptor, 0, os.SEEK_SET)
            while True:
                block = os.read(descriptor, WRITE_BLOCK)
                if not block:
                    break
                view = memoryview(block)
                while view:
                    view = view[os.write(copy, view):]
            os.fchmod(copy, stat.S_IMODE(os.fstat(descriptor).st_mode))
            os.fsync(copy)
        finally:
            os.close(copy)
    except BaseException:
        try:
            os.unlink(temporary)
        except OSError:
            pass
        raise
    return temporary


def _write_into(path: str, descriptor: int, spool: Spool) -> None:
    try:
        write_all(descriptor, spool.blocks())
    except BrokenPipeError:
        raise  # a FIFO's reader went away, as with ``| head``: quiet
    except OSError as exc:
        raise _output_error(path, exc) from None
    finally:
        os.close(descriptor)


def write_output(path: str, outputs: "Iterable[Iterable[str]]") -> None:
    """The ``-o`` output: written only once every input was judged.

    A regular file (or a link to one) is replaced atomically, keeping its mode
    and owner.  Anything else that exists (a device such as /dev/null, a
    FIFO, a terminal, a descriptor such as /dev/stdout) is written into as it
    is, once the whole text is ready, never replaced."""
    import stat

    descriptor = descriptor_named(path)
    if descriptor is not None:
        try:
            if stat.S_ISDIR(os.fstat(descriptor).st_mode):
                raise IsADirectoryError(21, "it is a directory")
        except OSError as exc:  # a closed descriptor: fail before judging
            raise _output_error(path, exc) from None
        spool = Spool()
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
    separators = tuple(separator for separator in (os.sep, os.altsep) if separator)
    if existing is None and path.endswith(separators):
        # Checked here: the temporary file would be made beside the folder
        # and only its renaming would fail, with a misleading ENOTDIR.
        raise InputError(f"cannot write the output: a file name cannot end with {path[-1]!r}",
                         path)
    if existing is None or stat.S_ISREG(existing.st_mode):
        replace_file(path, (piece for pieces in outputs for piece in pieces), existing)
        return
    spool = Spool()
    try:
        for pieces in outputs:
            spool.extend(pieces)
        # No O_CREAT: the node exists; no O_TRUNC: a device or FIFO has
        # nothing to truncate, and some refuse it.  (A FIFO waits here for
        # its reader, as a shell redirection does.)
        try:
            descriptor = os.open(path, os.O_WRONLY | getattr(os, "O_NOCTTY", 0)
                                 | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0))
        except OSError as exc:
            raise _output_error(path, exc) from None
        now = os.fstat(descriptor)
        if stat.S_ISREG(now.st_mode):
            # Replaced by a regular file since it was looked at: replace that.
            os.close(descriptor)
            replace_file(path, spool.blocks(), now)
        else:
            _write_into(path, descriptor, spool)
    finally:
        spool.close()


STDOUT_CLOSED = "cannot write the output: standard output is closed"


def silence_stdout() -> None:
    """After a broken pipe: send whatever is still to be flushed at exit to
    /dev/null, so that the exit itself reports no second error."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (AttributeError, OSError, ValueError):
        pass
