"""Items of buffers (NumPy arrays among them) of any byte order and item type.

NumPy is never imported: the buffer protocol's format string says what the
items are (``>i`` a big-endian int32, ``O`` Python objects, ``3w`` NumPy's
UCS-4 strings of three characters), and an object array's items come from
the exporter's own ``tolist``.
"""
import sys

# The annotations are for type checkers only, in quotes: the command line's
# start-up imports neither typing nor __future__.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from array import array
    from typing import Any, List, Optional, Tuple

    # A memoryview, typed Any: typeshed's memoryview.shape may be None, and
    # the callers index the shape of the views made here (of arrays).
    _View = Any

INTEGER = "integer"
OBJECT = "object"
TEXT = "text"    # NumPy str (UCS-4), ``Nw``
BYTES = "bytes"  # NumPy bytes, ``Ns``

_INTEGER_CODES = "bBhHiIlLqQnN"


def view_of(value: "Any", wanted: str) -> "Optional[_View]":
    """A memoryview of ``value``, or None when it exports no buffer.  A NumPy
    array whose dtype exports none (datetime64...) raises TypeError:
    ``wanted, not dtype NAME``."""
    try:
        return memoryview(value)
    except TypeError:
        return None
    except ValueError:
        if getattr(value, "dtype", None) is not None:
            raise TypeError(f"{wanted}, not {describe(value)}") from None
        raise


def describe(value: "Any", view: "Optional[memoryview]" = None) -> str:
    """``dtype NAME`` for an object that has one (NumPy), else the format."""
    dtype = getattr(value, "dtype", None)
    if dtype is not None:
        return f"dtype {dtype}"
    return f"buffer format {view.format!r}" if view is not None else type(value).__name__


def item_kind(view: memoryview) -> "Optional[Tuple[str, int, bool]]":
    """(kind, count, swapped) for the items of ``view``: kind INTEGER (count
    1), OBJECT, TEXT or BYTES (count characters an item); ``swapped`` when
    their byte order is not this machine's.  None for anything else."""
    fmt = view.format
    order = ""
    if fmt and fmt[0] in "@=<>!":
        order, fmt = fmt[0], fmt[1:]
    if order in ("<", ">", "!"):
        swapped = ("little" if order == "<" else "big") != sys.byteorder
    else:
        swapped = False
    if len(fmt) == 1 and fmt in _INTEGER_CODES:
        return INTEGER, 1, swapped
    if fmt == "O" and not order:
        return OBJECT, 1, False
    if fmt and fmt[-1] in "ws" and (fmt[:-1].isdigit() or not fmt[:-1]):
        count = int(fmt[:-1] or 1)
        if fmt[-1] == "w" and view.itemsize == 4 * count:
            return TEXT, count, swapped
        if fmt[-1] == "s" and view.itemsize == count:
            return BYTES, count, False
    return None


def native_integers(view: memoryview, signed_format: bool,
                    swapped: bool) -> "Optional[array[int]]":
    """The items of an integer buffer in C order as an ``array`` of the same
    width in this machine's byte order; None for a width ``array`` lacks."""
    from array import array

    codes = "bhiq" if signed_format else "BHIQ"
    for code in codes:
        if array(code).itemsize == view.itemsize:
            values = array(code, view.tobytes())
            if swapped:
                values.byteswap()
            return values
    return None


def is_signed(view: memoryview) -> bool:
    return view.format[-1].islower()


def text_items(view: memoryview, count: int, swapped: bool) -> str:
    """The characters of a UCS-4 buffer in C order, ``count`` an item (NUL
    padding included, as NumPy stores a shorter string)."""
    order = sys.byteorder if not swapped else ("big" if sys.byteorder == "little" else "little")
    return view.tobytes().decode(f"utf-32-{'le' if order == 'little' else 'be'}", "replace")


def object_items(value: "Any", view: memoryview) -> "Optional[List[Any]]":
    """The items of a buffer of Python objects as nested lists, from its
    exporter's ``tolist`` (NumPy); None when they cannot be reached."""
    exporter = value
    if isinstance(value, memoryview):
        # The exporter's list is this view's only when the view is all of it.
        exporter = value.obj
        try:
            whole = memoryview(exporter)
        except (TypeError, ValueError):
            return None
        if (whole.shape, whole.strides, whole.format) != (view.shape, view.strides, view.format):
            return None
    to_list = getattr(exporter, "tolist", None)
    if to_list is None:
        return None
    items = to_list()
    return items if isinstance(items, list) else None
