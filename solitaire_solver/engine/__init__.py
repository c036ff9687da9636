"""The search, which knows nothing about cards: the compiled engine (_engine.pyx and the C it
links), the one contract every core keeps (contract.py), which backend runs (backend.py) and the
reference search over the reference rules (search.py)."""
