"""The base of the package's immutable value classes."""

# The annotations are for type checkers only, in quotes: the command line's
# start-up imports neither typing nor __future__.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Type, TypeVar

    _F = TypeVar("_F", bound="Frozen")


class Frozen:
    """Fields are set once, through :meth:`_build`; assignment and deletion
    raise ``AttributeError`` afterwards.  Subclasses declare ``__slots__``."""

    __slots__ = ()

    @classmethod
    def _build(cls: "Type[_F]", **fields: "Any") -> "_F":
        """A new instance with these fields, without ``__init__``'s checks."""
        self = object.__new__(cls)
        self._set(**fields)
        return self

    def _set(self, **fields: "Any") -> None:
        for name, value in fields.items():
            object.__setattr__(self, name, value)

    def __setattr__(self, name: str, value: "Any") -> None:
        raise AttributeError(f"{type(self).__name__} is immutable")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"{type(self).__name__} is immutable")
