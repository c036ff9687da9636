# The C pack reader, for cores that read a deal's text themselves (a core's decide_text,
# engine/contract.py) without a Python call.
cpdef object parse_plain(str text)
