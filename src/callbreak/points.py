"""Exact scores in tenths, so that 4.1 + 0.1 + 0.1 is 4.3 and never 4.2999999.

>>> total = sum([Points.parse("4.1")] * 5, Points(0))
>>> str(total), total == 20.5, str(Points.parse("-3")), str(Points(130))
('20.5', True, '-3', '13')
"""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction
from functools import total_ordering


@total_ordering
class Points:
    """A score held as an integer number of tenths; ``str()`` gives ``4.1``, ``-3``, ``13``."""

    __slots__ = ("tenths",)

    tenths: int

    def __init__(self, tenths: int = 0) -> None:
        object.__setattr__(self, "tenths", int(tenths))

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Points is immutable")

    def __reduce__(self) -> tuple[type[Points], tuple[int]]:
        # Immutable slots defeat pickle's default; rebuild from the tenths instead.
        return (Points, (self.tenths,))

    @classmethod
    def parse(cls, value: str | int | float | Decimal | Points) -> Points:
        """Read ``"4.1"``, ``4.1``, ``-3`` or ``Decimal("0.1")``; a second decimal is an error."""
        if isinstance(value, Points):
            return value
        if isinstance(value, bool):
            raise ValueError(f"{value!r} is not a score")
        try:
            tenths = Decimal(str(value)) * 10
        except ArithmeticError:
            raise ValueError(f"{value!r} is not a number") from None
        if not tenths.is_finite():
            raise ValueError(f"{value!r} is not a number")
        if tenths != tenths.to_integral_value():
            raise ValueError(f"{value!r} has more than one decimal: scores are in tenths")
        return cls(int(tenths))

    @classmethod
    def whole(cls, value: int) -> Points:
        """``value`` whole points.  A Points never changes, so the small ones every deal scores
        are made once and shared (scoring a five-card deal made one per seat each time)."""
        if cls is Points and type(value) is int and -_SHARED <= value <= _SHARED:
            return _WHOLE[value + _SHARED]
        return cls(value * 10)

    def __add__(self, other: Points | int) -> Points:
        if isinstance(other, Points):
            return Points(self.tenths + other.tenths)
        if isinstance(other, int):
            return Points(self.tenths + 10 * other)
        return NotImplemented

    __radd__ = __add__

    def __sub__(self, other: Points | int) -> Points:
        if isinstance(other, Points):
            return Points(self.tenths - other.tenths)
        if isinstance(other, int):
            return Points(self.tenths - 10 * other)
        return NotImplemented

    def __neg__(self) -> Points:
        return Points(-self.tenths)

    def __mul__(self, factor: int) -> Points:
        if isinstance(factor, int):
            return Points(self.tenths * factor)
        return NotImplemented

    __rmul__ = __mul__

    def _key(self, other: object) -> Fraction | None:
        if isinstance(other, Points):
            return Fraction(other.tenths, 10)
        if isinstance(other, bool):
            return None
        if isinstance(other, (int, Decimal, Fraction)):
            return Fraction(other)
        if isinstance(other, float):
            # Compare against the nearest tenth the float stands for: 4.1 means 41 tenths.
            return Fraction(Decimal(repr(other)))
        return None

    def __eq__(self, other: object) -> bool:
        key = self._key(other)
        return NotImplemented if key is None else Fraction(self.tenths, 10) == key

    def __lt__(self, other: object) -> bool:
        key = self._key(other)
        if key is None:
            return NotImplemented
        return Fraction(self.tenths, 10) < key

    def __hash__(self) -> int:
        # Equal to the float it compares equal to (Points.parse("4.1") == 4.1), and for
        # whole values to the int as well, as Python's own numbers do.
        return hash(self.tenths / 10)

    def __float__(self) -> float:
        return self.tenths / 10

    def as_decimal(self) -> Decimal:
        return (
            Decimal(self.tenths).scaleb(-1).normalize()
            if self.tenths % 10
            else Decimal(self.tenths // 10)
        )

    def json(self) -> int | float:
        """The value for a JSON document: an int when whole, else a float with one decimal."""
        return self.tenths // 10 if self.tenths % 10 == 0 else self.tenths / 10

    def __str__(self) -> str:
        sign = "-" if self.tenths < 0 else ""
        whole, tenth = divmod(abs(self.tenths), 10)
        return f"{sign}{whole}.{tenth}" if tenth else f"{sign}{whole}"

    def __repr__(self) -> str:
        return f"Points.parse({str(self)!r})"

    def __format__(self, spec: str) -> str:
        return format(str(self), spec)


_SHARED = 200
_WHOLE = tuple(Points(10 * value) for value in range(-_SHARED, _SHARED + 1))
"""``Points.whole`` of -200 to 200, made once."""
