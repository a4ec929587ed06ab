"""Lists in a verdict's words, shared by every game (pure).

>>> and_list(["suns", "moons", "arms"]), and_list(["suns"]), and_list([])
('suns, moons and arms', 'suns', '')
>>> or_list([2, 3, 5]), or_list([4])
('2, 3 or 5', '4')
"""

from __future__ import annotations

from collections.abc import Iterable


def _joined(words: Iterable[str], last: str) -> str:
    w = list(words)
    if len(w) <= 1:
        return "".join(w)
    return ", ".join(w[:-1]) + f" {last} " + w[-1]


def and_list(words: Iterable[str]) -> str:
    """``a, b and c``."""
    return _joined(words, "and")


def or_list(numbers: Iterable[int]) -> str:
    """``1, 2 or 3``."""
    return _joined((str(n) for n in numbers), "or")
