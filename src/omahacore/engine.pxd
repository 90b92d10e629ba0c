# The hand engine: one hand's Rules and State (omahacore.transitions, where the betting rules
# live) under a Python object that checks each action, keeps the undo stack and writes the
# event log.
from omahacore.transitions cimport Outcome, Rules, State


cdef class HandCore:
    cdef Rules rules
    cdef State state
    cdef char* undo_stack           # records of RECORD bytes: a State up to its stud cards
    cdef Py_ssize_t undo_length, undo_capacity
    cdef public object config, seats, _log, _deck, _rake, _undo_extra
    cdef public object _order, _shown, _strengths, _showdown_state, _settlement, _result
    cdef public bint _manual

    cdef int _act_at(self, int act, int i) except -1
    cdef int _after(self, int street, Outcome outcome) except -1
    cdef int _show_down(self) except -1
    cdef int _push_state(self) except -1
    cdef int _turn_index(self, object seat) except -2
    cdef object _refused(self, void* refusal, object to)
