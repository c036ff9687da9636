cimport cython

# Cython's declarations for solver.py where it is compiled (pure-Python mode): the plain
# call's answer and its Result are C functions, not Python-level calls.
from .engine._engine cimport TextEntry


@cython.locals(decider=TextEntry)
cdef object _text_answer(tuple entry, str text)
cdef object _made(str game, object status, object moves, object proof, dict stats, dict variant,
                  str deal)

# The plain call's tables, read as dicts in C (no method lookup per call).
cdef dict _TEXT
cdef dict _TEXT_FIELDS
