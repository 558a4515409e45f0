"""Where input comes from: a path, "-" for standard input, or an open file.

An open file may be binary or text: a text file's characters are read as
UTF-8, which leaves the judge format (ASCII) as it is and quotes any other
character in a message as it reads.  A text file that cannot be decoded is
an :class:`InputError` that advises opening it in binary mode.

Every reader of the package goes through :func:`read_input`, so every input
is streamed from a descriptor (never held in memory whole, and read no
further than its first fault) and an input that cannot be opened is one
:class:`InputError`.
"""
import os

from .errors import InputError

# The annotations are for type checkers only, in quotes: the command line's
# start-up imports neither typing nor __future__.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import IO, Any, Callable, Optional, Tuple, TypeVar, Union

    _R = TypeVar("_R")


def is_stdin(file: "Any") -> bool:
    return isinstance(file, (str, bytes, os.PathLike)) and os.fspath(file) in ("-", b"-")


def read_input(file: "Any", consume: "Callable[[Any], _R]") -> "Tuple[_R, str]":
    """``consume(data)`` on the input, where ``data`` is a file descriptor or
    bytes; returns ``(consume's result, the input's name for messages)``."""
    if is_stdin(file):
        import sys

        stdin = sys.stdin
        if stdin is None:
            raise InputError("standard input is closed", "<stdin>")
        try:
            data = stdin.fileno()
        except (AttributeError, OSError, ValueError):
            return _through_pipe(getattr(stdin, "buffer", stdin), consume, "<stdin>"), "<stdin>"
        return consume(data), "<stdin>"
    if isinstance(file, (str, bytes, os.PathLike)):
        source = os.fsdecode(file)
        try:
            # O_BINARY: Windows would otherwise translate line ends and stop at Ctrl-Z.
            descriptor = os.open(file, os.O_RDONLY | getattr(os, "O_BINARY", 0))
        except OSError as exc:
            raise InputError(f"cannot open: {exc.strerror}", source) from None
        try:
            # A directory opens but fails at its first read, which the reader
            # would report at line 1, a line the directory does not have.
            if _is_directory(descriptor):
                raise InputError("is a directory", source)
            return consume(descriptor), source
        finally:
            os.close(descriptor)
    if not callable(getattr(file, "read", None)):
        raise TypeError(f"file must be a path, \"-\" (standard input) or an open file, "
                        f"not {type(file).__name__}")
    name = getattr(file, "name", None)
    source = os.fsdecode(name) if isinstance(name, (str, bytes)) else "<stream>"
    return _through_pipe(file, consume, source), source


def _is_directory(descriptor: int) -> bool:
    import stat  # already loaded by os: no start-up cost

    return stat.S_ISDIR(os.fstat(descriptor).st_mode)


# Bytes a feeder reads from a file object at a time.
_FEED_CHUNK = 1 << 16


def _through_pipe(file: "Any", consume: "Callable[[int], _R]", source: str) -> "_R":
    """``consume(descriptor)`` on what ``file.read`` gives, written into a
    pipe by a feeder thread: the reader then streams a file object as it
    streams a path, and when it stops at a fault, closing the pipe stops the
    feeder, however long the file object would have gone on."""
    from ._threads import Worker

    read_end, write_end = os.pipe()

    def feed() -> None:
        try:
            while True:
                chunk = file.read(_FEED_CHUNK)
                if not chunk:
                    return
                if isinstance(chunk, str):
                    chunk = chunk.encode("utf-8", "surrogateescape")
                try:
                    view = memoryview(chunk)
                except TypeError:
                    raise TypeError(f"the file's read() must return bytes or str, "
                                    f"not {type(chunk).__name__}") from None
                while view:
                    view = view[os.write(write_end, view):]
        except BrokenPipeError:
            return              # the reader has stopped: nothing more is wanted
        except UnicodeDecodeError as exc:
            raise InputError(f"cannot read: the text is not valid {exc.encoding} "
                             f"({exc.reason}); open the file in binary mode (\"rb\")",
                             source) from None
        finally:
            os.close(write_end)

    feeder = Worker(feed)
    try:
        feeder.start()
        result = consume(read_end)
    finally:
        os.close(read_end)
        feeder.join()
    feeder.outcome()            # an error of file.read comes before any fault it caused
    return result


def encode_text(text: "Any", source: "Optional[str]") -> "Any":
    """A judge input given as ``str`` or bytes-like, as bytes-like; a
    TypeError for anything else (a file, which ``judge_file`` reads)."""
    if isinstance(text, str):
        try:
            return text.encode()
        except UnicodeEncodeError as exc:
            raise InputError(f"the input is not valid text: {exc.reason}", source) from None
    try:
        memoryview(text).release()
    except TypeError:
        hint = " (judge_file and explain_file read a file)" if hasattr(text, "read") else ""
        raise TypeError(f"text must be str or bytes-like, "
                        f"not {type(text).__name__}{hint}") from None
    return text
