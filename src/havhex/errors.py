"""The one exception type that bad input raises."""

__all__ = ["InputError"]


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
