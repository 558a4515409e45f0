"""The one exception type that bad input raises."""

__all__ = ["InputError"]

# Reader statuses (mirrors the enum in _reader.pxd).
_TOKEN_MISSING, _TOKEN_NOT_INTEGER, _TOKEN_TOO_LARGE, _TOKEN_IO_ERROR = range(1, 5)


class InputError(ValueError):
    """Input that breaks the judge format or the rules of a position.

    ``str()`` is ``SOURCE:LINE: reason`` when the fault has a place in a file
    (the CLI prints it after ``havhex: ``), else just the reason.
    """

    def __init__(self, reason, source=None, line=None):
        self.reason = reason
        self.source = source
        self.line = line
        if source is not None and line is not None:
            text = f"{source}:{line}: {reason}"
        elif source is not None:
            text = f"{source}: {reason}"
        else:
            text = reason
        super().__init__(text)


def token_reason(status, what, token, io_errno):
    """The reason for a token the reader could not take as ``what``."""
    import os

    text = (token or b"").decode("utf-8", "backslashreplace")
    if status == _TOKEN_MISSING:
        return f"input ends before {what}"
    if status == _TOKEN_NOT_INTEGER:
        return f"expected {what} as an integer, found {text!r}"
    if status == _TOKEN_TOO_LARGE:
        return f"{what} is too large: {text!r}"
    return f"cannot read the input: {os.strerror(io_errno)}"


MEMORY_REASON = "out of memory while reading the input"


def trailing_reason(token):
    """The reason for data after the last test case (``token``: its bytes)."""
    text = (token or b"").decode("utf-8", "backslashreplace")
    return f"unexpected data after the last test case: {text!r}"
