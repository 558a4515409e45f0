"""The progress line of a judge run: on stderr, for large inputs, when stderr
is a terminal."""
import os
import sys

__all__ = ["PROGRESS_THRESHOLD", "StatusLine", "Progress", "progress_for"]

# The annotations are for type checkers only, in quotes, as in the modules
# a judge run loads (this one loads for a large input on a terminal).
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Optional, TextIO

# Inputs at least this large show a progress line when stderr is a terminal.
PROGRESS_THRESHOLD = 64 * 1024 * 1024


class StatusLine:
    """One line on a terminal's stream, rewritten in place and wiped at
    the end."""

    def __init__(self, stream: "TextIO") -> None:
        self.stream = stream
        self.shown = False

    def show(self, text: str) -> None:
        self.stream.write(f"\rhavhex: {text}")
        self.stream.flush()
        self.shown = True

    def close(self) -> None:
        if self.shown:
            self.stream.write("\r\033[K")
            self.stream.flush()


class Progress(StatusLine):
    """A one-line progress display on stderr: cases judged and MB read."""

    def __init__(self, name: str, total_bytes: int, stream: "TextIO") -> None:
        super().__init__(stream)
        self.name = name
        self.total_mb = total_bytes / 1e6

    def __call__(self, bytes_read: int, cases_read: int, cases_judged: int) -> None:
        self.show(f"{self.name}: {cases_judged} of {cases_read} cases judged, "
                  f"{bytes_read / 1e6:.0f} of {self.total_mb:.0f} MB read")


def progress_for(file: str) -> "Optional[Progress]":
    """A progress display on stderr (a terminal) for ``file`` when it is
    large, else None."""
    try:
        size = os.stat(file).st_size
    except OSError:
        return None
    try:  # a knob for tests: a malformed value is no reason to fail a run
        threshold = int(os.environ.get("HAVHEX_PROGRESS_MIN_BYTES", PROGRESS_THRESHOLD))
    except ValueError:
        threshold = PROGRESS_THRESHOLD
    return Progress(file, size, sys.stderr) if size >= threshold else None
