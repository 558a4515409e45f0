"""The one exception type that bad input raises, and the wording of the
faults both input formats share.

A leaf: it imports nothing of havhex.  The reader's codes and limits are
compiled into each engine (``_native/reader.pxd``, the same in both); a
function that needs them takes the engine that read (``engine``).
"""

__all__ = ["InputError"]

# The annotations are for type checkers only, in quotes: the command line's
# start-up imports neither typing nor __future__.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from types import ModuleType
    from typing import Any, Callable, Optional, Tuple, Union


# At most this many bytes of a bad token, and characters of their quoted
# text, are shown in a message; the reader keeps a few bytes more, so that a
# message knows when a token goes on (and shows "..." then).
TOKEN_SHOWN = 40


class InputError(ValueError):
    """Input that breaks the judge format or the rules of a position.

    ``str()`` is ``SOURCE:LINE: reason`` when the fault has a place in a file
    (the CLI prints it after ``havhex: ``), else just the reason.
    """

    def __init__(self, reason: str, source: "Optional[str]" = None,
                 line: "Optional[int]" = None) -> None:
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

    def __reduce__(self) -> "Tuple[type, Tuple[str, Optional[str], Optional[int]]]":
        # Pickled with its parts (a Dask worker's fault reaches the client
        # whole), not with the one text that ValueError would keep.
        return (type(self), (self.reason, self.source, self.line))


def shown_bytes(token: "Union[bytes, bytearray, None]") -> str:
    """``token`` (bytes from the input) quoted for a message: UTF-8 text as
    it reads, every other byte and every unprintable character escaped once
    (``\\xff``, ``\\x00``, ``\\n``).  Beyond TOKEN_SHOWN bytes or TOKEN_SHOWN
    characters of quoted text the token is cut, at a character's start, and
    "..." follows the quotes."""
    token = bytes(token or b"")
    cut = len(token) > TOKEN_SHOWN
    if cut:
        token = token[:TOKEN_SHOWN]
        # Drop a character the cut split, rather than show its bytes escaped.
        for drop in range(1, 4):
            if token[-drop] < 0x80:
                break
            if token[-drop] >= 0xC0:
                try:
                    token[-drop:].decode("utf-8")
                except UnicodeDecodeError:
                    token = token[:-drop]
                break
    text = ""
    for character in token.decode("utf-8", "surrogateescape"):
        code = ord(character)
        if 0xDC80 <= code <= 0xDCFF:            # a byte that is not UTF-8 text
            part = f"\\x{code - 0xDC00:02x}"
        elif character == "'":
            part = "\\'"
        else:
            part = repr(character)[1:-1]
        if len(text) + len(part) > TOKEN_SHOWN:
            cut = True
            break
        text += part
    return "'" + text + "'" + ("..." if cut else "")


def token_reason(status: int, what: str, token: "Union[bytes, bytearray, None]", io_errno: int,
                 engine: "ModuleType") -> str:
    """The reason for a token the reader of ``engine`` could not take as ``what``."""
    import os

    missing, not_integer, too_long, _ = engine.TOKEN_CODES
    if status == missing:
        return f"input ends before {what}"
    if status == not_integer:
        return f"expected {what} as an integer, found {shown_bytes(token)}"
    if status == too_long:
        return (f"{what} is too long: {shown_bytes(token)} "
                f"(a number has at most {engine.MAX_NUMBER_DIGITS} digits)")
    return f"cannot read the input: {os.strerror(io_errno)}"


MEMORY_REASON = "out of memory while reading the input"


def trailing_reason(token: "Union[bytes, bytearray, None]") -> str:
    """The reason for data after the last test case (``token``: its bytes)."""
    return f"unexpected data after the last test case: {shown_bytes(token)}"


def shared_fault_reason(parsed: "Any", name_field: "Callable[[int], str]",
                        engine: "ModuleType") -> "Optional[str]":
    """The reason for a fault that both input formats have (a bad token, data
    after the last case, no memory), or None for a fault of the format's own;
    ``name_field(field)`` names what the reader expected (for a bad token);
    ``engine`` is the compiled module that read ``parsed``."""
    token, trailing, memory = engine.SHARED_FAULT_CODES
    code = parsed.err_code
    if code == token:
        return token_reason(parsed.err_status, name_field(parsed.err_field), parsed.err_token,
                            parsed.err_io_errno, engine)
    if code == trailing:
        return trailing_reason(parsed.err_token)
    if code == memory:
        return MEMORY_REASON
    return None
