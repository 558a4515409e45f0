"""The base of the package's immutable value classes."""


class Frozen:
    """Fields are set once, through :meth:`_build`; assignment and deletion
    raise ``AttributeError`` afterwards.  Subclasses declare ``__slots__``."""

    __slots__ = ()

    @classmethod
    def _build(cls, **fields):
        """A new instance with these fields, without ``__init__``'s checks."""
        self = object.__new__(cls)
        self._set(**fields)
        return self

    def _set(self, **fields):
        for name, value in fields.items():
            object.__setattr__(self, name, value)

    def __setattr__(self, name, value):
        raise AttributeError(f"{type(self).__name__} is immutable")

    def __delattr__(self, name):
        raise AttributeError(f"{type(self).__name__} is immutable")
