"""Plain words for verdict reasons: ordinals, points, lengths.

>>> ordinal(3)
'third'
>>> at((412.34, 120.0))
'(412, 120)'
>>> mm(17.234)
'17.2 mm'
>>> diameter(19.05), diameter(20.0)
('19.05 mm', '20 mm')
>>> sentence(f"{possessive('suns')} worm moved {steps(4)}")
"Suns' worm moved 4 steps."
"""

from __future__ import annotations

_ORDINALS = ("zeroth", "first", "second", "third", "fourth", "fifth", "sixth", "seventh",
             "eighth", "ninth", "tenth")


def ordinal(n: int) -> str:
    """``3`` -> ``'third'`` (``'11th'`` beyond ten)."""
    return _ORDINALS[n] if 0 <= n < len(_ORDINALS) else f"{n}th"


def at(point: tuple[float, float]) -> str:
    """A point in mm as ``(x, y)`` rounded to whole millimetres."""
    return f"({point[0]:.0f}, {point[1]:.0f})"


def mm(value: float) -> str:
    """A length with one decimal: ``'17.2 mm'``."""
    return f"{value:.1f} mm"


def diameter(value: float) -> str:
    """A size with up to two decimals: ``'19.05 mm'``."""
    return f"{value:.2f}".rstrip("0").rstrip(".") + " mm"


def steps(n: int) -> str:
    """``'1 step'``, ``'3 steps'``."""
    return f"{n} step" if n == 1 else f"{n} steps"


def count(n: int, noun: str) -> str:
    """``'1 obstacle'``, ``'3 obstacles'``."""
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def possessive(name: str) -> str:
    """``'suns'`` -> ``"suns'"``, ``'Ann'`` -> ``"Ann's"``."""
    return f"{name}'" if name.endswith("s") else f"{name}'s"


def sentence(text: str) -> str:
    """One plain sentence: the first letter capitalised, a full stop at the end.

    >>> sentence("the course is set up"), sentence("Already one."), sentence("")
    ('The course is set up.', 'Already one.', '')
    """
    t = text.strip()
    if not t:
        return t
    t = t[0].upper() + t[1:]
    return t if t[-1] in ".!?" else t + "."
