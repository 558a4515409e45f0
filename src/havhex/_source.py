"""Where input comes from: a path, "-" for standard input, or an open file.

Every reader of the package goes through :func:`read_input`, so every input
is streamed from a descriptor (never held in memory whole, and read no
further than its first fault) and an input that cannot be opened is one
:class:`InputError`.
"""
import os

from .errors import InputError


def is_stdin(file):
    return isinstance(file, (str, bytes, os.PathLike)) and os.fspath(file) in ("-", b"-")


def read_input(file, consume):
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
            return _through_pipe(getattr(stdin, "buffer", stdin), consume), "<stdin>"
        return consume(data), "<stdin>"
    if isinstance(file, (str, bytes, os.PathLike)):
        source = os.fsdecode(file)
        try:
            descriptor = os.open(file, os.O_RDONLY)
        except OSError as exc:
            raise InputError(f"cannot open: {exc.strerror}", source) from None
        try:
            return consume(descriptor), source
        except IsADirectoryError:
            raise InputError("cannot read: it is a directory", source) from None
        finally:
            os.close(descriptor)
    return _through_pipe(file, consume), getattr(file, "name", "<stream>")


# Bytes a feeder reads from a file object at a time.
_FEED_CHUNK = 1 << 16


def _through_pipe(file, consume):
    """``consume(descriptor)`` on what ``file.read`` gives, written into a
    pipe by a feeder thread: the reader then streams a file object as it
    streams a path, and when it stops at a fault, closing the pipe stops the
    feeder, however long the file object would have gone on."""
    from ._threads import Worker

    read_end, write_end = os.pipe()

    def feed():
        try:
            while True:
                chunk = file.read(_FEED_CHUNK)
                if not chunk:
                    return
                if isinstance(chunk, str):
                    chunk = chunk.encode("utf-8", "surrogateescape")
                view = memoryview(chunk)
                while view:
                    view = view[os.write(write_end, view):]
        except BrokenPipeError:
            return              # the reader has stopped: nothing more is wanted
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


def encode_text(text, source):
    """A judge input given as ``str`` or bytes-like, as bytes-like."""
    if isinstance(text, str):
        try:
            return text.encode()
        except UnicodeEncodeError as exc:
            raise InputError(f"the input is not valid text: {exc.reason}", source) from None
    return text
