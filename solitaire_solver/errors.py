"""Exceptions: every bad input is a ValueError subclass that says what is wrong and where."""


class SolitaireError(ValueError):
    """Base class of the errors raised for bad input."""


class CardError(SolitaireError):
    """A card token that is not a card (unknown rank or suit)."""


class DealError(SolitaireError):
    """A deal that is not exactly one full pack: bad token, duplicate, missing card, wrong count."""


class LayoutError(SolitaireError):
    """A layout text that does not describe a layout of the game."""


class MoveError(SolitaireError):
    """A move text that cannot be read, or a move that is illegal where it is played."""


class UnknownGameError(SolitaireError):
    """A game name that is not in the registry."""


class VariantError(SolitaireError):
    """An unknown variant option, or a value it does not take."""


class VerificationError(SolitaireError):
    """An answer (moves or a proof) that does not check under the reference rules."""


def quoted(value: object) -> str:
    """A value as an error message quotes it (repr; an int as its digits), cut short: a value
    typed with thousands of digits would fill the screen, and Python refuses str() of an int
    past 4300 digits."""
    if isinstance(value, int) and not isinstance(value, bool):
        if abs(value) < 10**40:
            return str(value)
        return f"({'a negative' if value < 0 else 'an'} integer of {value.bit_length()} bits)"
    text = repr(value)
    if len(text) <= 40:
        return text
    size = f" ({len(value)} characters)" if isinstance(value, str) else ""
    return f"{text[:30]}...{size}"
