"""The value of a number token too long to hold, read piece by piece.

A token over ``streams.LONG`` bytes is never held whole, yet the float
checkers must know its value when it is a number (a megabytes-long run of
zeros after the point is still within tolerance of ``1``). A double is
decided by a decimal number's first 767 significant digits and by whether
any digit after them is not zero: every point halfway between two doubles
has at most 767 significant digits, so replacing what follows the first
``DIGITS`` by a single ``1`` when it holds a non-zero digit (else by
nothing) keeps the number on the same side of every such point, and
``float`` of the short form equals ``float`` of the whole. So a reader keeps
the sign, the first ``DIGITS`` significant digits, how many digits stood
before the point and before the first significant one, whether a non-zero
digit came after those kept, and the exponent without its leading zeros.

Whether the token is a number at all is decided elsewhere (its skeleton,
``streams._LongToken``); on anything that is not one, the reader's value is
meaningless and never asked for.
"""

from __future__ import annotations

import re

DIGITS = 800  # significant digits kept: more than the 767 a double's rounding can depend on
EXPONENT_DIGITS = 40  # an exponent longer than this (without leading zeros) is past every double either way
_PARTS = re.compile(rb"([.eE+-])")


class NumberReader:
    """Reads a decimal number ``[+-]?(D+.?D*|.D+)([eE][+-]?D+)?`` given in pieces cut anywhere."""

    def __init__(self) -> None:
        self.negative = False
        self.part = "whole"  # then "fraction", then "exponent"
        self.whole = 0  # digits before the point
        self.zeros = 0  # digits before the first significant one
        self.kept = b""  # the first DIGITS significant digits
        self.beyond = False  # a non-zero digit after those kept
        self.exponent_negative = False
        self.exponent = b""  # without leading zeros, at most EXPONENT_DIGITS + 1 of them

    def add(self, piece: bytes) -> None:
        if piece.isdigit():  # nearly every piece of a long number: no pattern to run over it
            self._digits(piece)
            return
        for index, part in enumerate(_PARTS.split(piece)):
            if index % 2:
                self._mark(part)
            elif part:
                self._digits(part)

    def _mark(self, mark: bytes) -> None:
        if mark == b".":
            self.part = "fraction"
        elif mark in (b"e", b"E"):
            self.part = "exponent"
        elif self.part == "exponent":
            self.exponent_negative = mark == b"-"
        else:
            self.negative = mark == b"-"

    def _digits(self, digits: bytes) -> None:
        if self.part == "exponent":
            if len(self.exponent) <= EXPONENT_DIGITS:
                self.exponent = (self.exponent + digits).lstrip(b"0")[: EXPONENT_DIGITS + 1]
            return
        if self.part == "whole":
            self.whole += len(digits)
        if not self.kept:
            significant = digits.lstrip(b"0")
            self.zeros += len(digits) - len(significant)
            digits = significant
        room = DIGITS - len(self.kept)
        self.kept += digits[:room]
        if not self.beyond and digits[room:].strip(b"0"):
            self.beyond = True

    def value(self) -> float:
        """The number's value, exactly as ``float`` reads the whole token."""
        if not self.kept:
            return -0.0 if self.negative else 0.0
        exponent = int(self.exponent or b"0") * (-1 if self.exponent_negative else 1)
        point = self.whole - self.zeros + exponent  # the value is 0.<kept> times ten to this
        digits = (self.kept + (b"1" if self.beyond else b"")).decode()
        return float(f"{'-' if self.negative else ''}0.{digits}e{point}")
