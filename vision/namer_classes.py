"""What the learned namer tells apart: one class per kind of piece and what it shows.

>>> CLASSES.index("nothing"), len(CLASSES)
(0, 12)
>>> CLASSES[class_of({"kind": "tile", "face": "down"})]
'tile-down'
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

SUITS: tuple[str, ...] = ("suns", "moons", "crowns", "arms")

CLASSES: tuple[str, ...] = (
    "nothing",
    *(f"coin-{s}" for s in SUITS),
    *(f"tile-up-{s}" for s in SUITS),
    "tile-down",
    "post",
    "coin-down",
)
"""The namer's outputs, in order (a coin face down shows its value, not its suit)."""

KIND_OF: tuple[str | None, ...] = tuple(
    None if c == "nothing" else c.split("-")[0] for c in CLASSES)
"""The piece kind of each class (None for nothing)."""


def class_of(piece: Mapping[str, Any]) -> int:
    """The class of a true piece (a dict with kind, suit, face)."""
    kind = piece["kind"]
    if kind == "coin":
        if piece.get("face") == "down" or piece.get("suit") not in SUITS:
            return CLASSES.index("coin-down")
        return CLASSES.index(f"coin-{piece['suit']}")
    if kind == "tile":
        if piece.get("face") == "up" and piece.get("suit") in SUITS:
            return CLASSES.index(f"tile-up-{piece['suit']}")
        return CLASSES.index("tile-down")
    if kind == "post":
        return CLASSES.index("post")
    raise ValueError(f"no namer class for a {kind!r}")
