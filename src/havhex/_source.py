"""Where input comes from: a path, "-" for standard input, or an open file.

Every reader of the package goes through :func:`read_input`, so paths and
standard input are streamed from a descriptor (never held in memory whole)
and an input that cannot be opened is one :class:`InputError`.
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
            data = stdin.buffer.read() if hasattr(stdin, "buffer") else stdin.read().encode()
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
    return consume(file.read()), getattr(file, "name", "<stream>")


def encode_text(text, source):
    """A judge input given as ``str`` or bytes-like, as bytes-like."""
    if isinstance(text, str):
        try:
            return text.encode()
        except UnicodeEncodeError as exc:
            raise InputError(f"the input is not valid text: {exc.reason}", source) from None
    return text
