"""Montana (Gaps; PySolFC 53): four rows of places, cards moved into gaps (docs/montana.md)."""
