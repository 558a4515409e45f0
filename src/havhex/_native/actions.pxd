# cython: language_level=3
"""The integer action ids of both live boards (the batches' ids): taking
one from Python, and the arrays ``legal_actions`` hands out.

An action is an int (or anything ``operator.index`` takes, NumPy integers
too, never a bool); a huge one comes back far out of range (beyond 2**40,
more than any board's actions), so that the board's range check rejects it
with the board's own message.
"""
from cpython.array cimport array, clone
from cpython.long cimport PyLong_AsLongAndOverflow

cdef extern from "Python.h":
    void Py_SET_SIZE(object o, Py_ssize_t size)


cdef inline Py_ssize_t action_number(value) except? -1:
    """``value`` as an action number; TypeError for anything but an integer."""
    cdef int overflow = 0
    cdef long number
    cdef Py_ssize_t far = (<Py_ssize_t>1) << 40
    if type(value) is int:
        number = PyLong_AsLongAndOverflow(value, &overflow)
        if overflow == 0 and -far <= number <= far:
            return number
        return far if value > 0 else -far
    return other_action_number(value)


cdef inline Py_ssize_t other_action_number(value) except? -1:
    """action_number's rare cases (NumPy integers, other ``__index__``)."""
    if isinstance(value, bool) or not hasattr(type(value), "__index__"):
        raise TypeError(f"an action must be an int, not {type(value).__name__}")
    return action_number(int(value.__index__()))


cdef inline array new_actions(array template, Py_ssize_t n, Py_ssize_t spare):
    """An uninitialised array of ``n`` actions like ``template`` (an empty
    ``array("i")``: a C int, 32 bits on every platform havhex builds for,
    which NumPy reads as int32), with room for ``spare`` more: a fill
    without branches writes each cell's action and advances past the legal
    ones only, so that a row's writes may run past the end by the row."""
    cdef array actions = clone(template, n + spare, False)
    # The array's own resize keeps the block when it shrinks (its allocated
    # size stays): the length is all that changes.
    Py_SET_SIZE(actions, n)
    return actions
