# Reading caller input safely, shared by every compiled module (issue 10, item 1).
#
# Compiled code never indexes a caller's container while calling back into Python: it first
# takes a fixed-length snapshot (a tuple), then turns each item into an exact ``int`` with at
# most one ``__index__`` call, and only then works on C copies. Nothing here raises: callers
# turn a None/False result into their own typed error.
from cpython.bool cimport PyBool_Check
from cpython.long cimport PyLong_Check, PyLong_CheckExact
from cpython.number cimport PyNumber_Index


cdef inline bint is_numpy_bool(object item) noexcept:
    """A numpy bool scalar (never a card or an amount); looked up on the type, no user code."""
    cdef object kind = type(item)
    return kind.__name__ in ("bool", "bool_") and kind.__module__ == "numpy"


cdef inline object exact_int(object item):
    """``item`` as an exact ``int`` (one ``__index__`` call at most), or None when it is not an
    integer: bools, floats, text, and objects whose ``__index__`` raises or returns anything
    but an exact int (itself, a bool, an int subclass, another object)."""
    cdef object value
    if PyLong_CheckExact(item):
        return item
    if PyLong_Check(item):   # bool, or an int subclass: its value, copied; none of its code runs
        return None if PyBool_Check(item) else PyNumber_Index(item)
    if is_numpy_bool(item):
        return None
    try:
        value = type(item).__index__(item)   # the type's own slot, called once, directly
    except Exception:
        return None
    return value if PyLong_CheckExact(value) else None


cdef inline str shown(object item):
    """A short repr of caller input for error messages: never raises, never huge."""
    cdef str text
    try:
        if PyLong_Check(item) and not PyBool_Check(item) and int.bit_length(item) > 96:
            return f"an int of {int.bit_length(item)} bits"
        text = repr(item)
    except Exception:
        return f"<{type(item).__name__} object>"
    if not isinstance(text, str):
        return f"<{type(item).__name__} object>"
    return text if len(text) <= 80 else text[:77] + "..."
