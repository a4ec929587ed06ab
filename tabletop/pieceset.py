"""The physical sizes and colours of a set of pieces.

Defaults are the Mesomorph piecepack reference set (tiles 2" = 50.8 mm, coins 3/4" = 19.05 mm
across and 1/8" thick, dice 1/2") with the suit colours piecepackr draws (Suns #D55E00,
Moons #000000, Crowns #009E73, Arms #0072B2), plus Worm Up! parts (posts, segments).

Real sets differ, so any field can be overridden from a small JSON file::

    {"coin_diameter_mm": 19.5, "suit_colours": {"suns": "#C04000"}}

or from a game record's setup ``sizes`` (``coin_mm``, ``tile_mm``, ``segment_mm``, ``post_mm``).

>>> PieceSet().coin_radius_mm
9.525
>>> PieceSet().with_sizes({"coin_mm": 20}).coin_diameter_mm
20.0
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from types import MappingProxyType
from typing import Any

from tabletop import jsonin
from tabletop.errors import InputError
from tabletop.files import read_bytes
from tabletop.kinds import PIECE_KINDS
from tabletop.limits import PIECE_MM

SUIT_COLOURS_HEX: Mapping[str, str] = MappingProxyType({
    "suns": "#D55E00", "moons": "#000000", "crowns": "#009E73", "arms": "#0072B2",
})
"""Suit colours as piecepackr draws them."""

SEGMENT_COLOURS_HEX: Mapping[str, str] = MappingProxyType({
    "red": "#D1342F", "yellow": "#F2C230", "green": "#3A9A45", "blue": "#2F64C0",
    "purple": "#7A3E9D",
})
"""Worm Up! segment colours (five worms)."""

_SIZE_ALIASES = {"coin_mm": "coin_diameter_mm", "tile_mm": "tile_mm",
                 "segment_mm": "segment_diameter_mm", "post_mm": "post_diameter_mm"}


def hex_to_rgb(colour: str) -> tuple[int, int, int]:
    """``"#D55E00"`` -> ``(213, 94, 0)``.

    >>> hex_to_rgb("#0072B2")
    (0, 114, 178)
    """
    s = colour.lstrip("#")
    if len(s) != 6:
        raise InputError(f"colour {colour!r} is not #RRGGBB")
    try:
        return (int(s[0:2], 16), int(s[2:4], 16), int(s[4:6], 16))
    except ValueError:
        raise InputError(f"colour {colour!r} is not #RRGGBB") from None


@dataclass(frozen=True)
class PieceSet:
    """Sizes (millimetres) and colours of one physical set."""

    coin_diameter_mm: float = 19.05
    coin_thickness_mm: float = 3.175
    tile_mm: float = 50.8
    tile_thickness_mm: float = 4.8
    die_mm: float = 12.7
    post_diameter_mm: float = 10.0
    post_height_mm: float = 40.0
    segment_diameter_mm: float = 20.0
    segment_height_mm: float = 10.0
    token_mm: float = 30.0
    token_thickness_mm: float = 3.0
    suit_colours: Mapping[str, str] = field(default_factory=lambda: dict(SUIT_COLOURS_HEX))
    segment_colours: Mapping[str, str] = field(default_factory=lambda: dict(SEGMENT_COLOURS_HEX))

    def __post_init__(self) -> None:
        for f in fields(self):
            v = getattr(self, f.name)
            if f.name.endswith("_mm") and (isinstance(v, bool) or not isinstance(v, int | float)
                                           or not math.isfinite(v) or v <= 0
                                           or v > PIECE_MM[1]):
                raise InputError(f"piece set: {f.name} must be a positive number of mm up "
                                 f"to {PIECE_MM[1]:g}, not {v!r}")
        for name in ("suit_colours", "segment_colours"):
            colours = getattr(self, name)
            for c in colours.values():
                hex_to_rgb(c)
            object.__setattr__(self, name, MappingProxyType(dict(colours)))

    @property
    def coin_radius_mm(self) -> float:
        """Half the coin's diameter."""
        return self.coin_diameter_mm / 2.0

    def size_mm(self, kind: str) -> float:
        """A piece's side (a square kind) or diameter (a round one), by its kind.

        >>> PieceSet().size_mm("tile"), PieceSet().size_mm("coin")
        (50.8, 19.05)
        """
        return float(getattr(self, PIECE_KINDS[kind].size_field))

    def height_mm(self, kind: str) -> float:
        """How high a piece of that kind stands above the table."""
        k = PIECE_KINDS[kind]
        return float(getattr(self, k.height_field)) if k.height_field else k.height_mm

    def suit_rgb(self, suit: str) -> tuple[int, int, int]:
        """A suit's colour as 8-bit RGB."""
        return hex_to_rgb(self.suit_colours[suit])

    def with_sizes(self, sizes: Mapping[str, Any]) -> PieceSet:
        """A copy with sizes overridden, by field name or the record's short names (``coin_mm``)."""
        changes: dict[str, Any] = {}
        names = {f.name for f in fields(self)}
        for key, value in sizes.items():
            name = _SIZE_ALIASES.get(key, key)
            if name not in names:
                raise InputError(f"piece set: unknown size {key!r}")
            if isinstance(value, bool) or not isinstance(value, int | float):
                raise InputError(f"piece set: {key} must be a number, not {value!r}")
            changes[name] = float(value)
        return replace(self, **changes)

    @classmethod
    def from_json(cls, obj: Any, where: str = "piece set") -> PieceSet:
        """Defaults overridden by the fields of a JSON object."""
        if not isinstance(obj, Mapping):
            raise InputError(f"{where}: must be a JSON object")
        base = cls()
        colour_fields = {"suit_colours", "segment_colours"}
        sizes = {k: v for k, v in obj.items() if k not in colour_fields}
        try:
            out = base.with_sizes(sizes)
            for name in colour_fields & set(obj):
                if not isinstance(obj[name], Mapping):
                    raise InputError(f"{name} must be an object of name -> #RRGGBB")
                merged: dict[str, Any] = {name: {**getattr(out, name), **obj[name]}}
                out = replace(out, **merged)
        except InputError as exc:
            raise InputError(f"{where}: {exc}") from None
        return out

    @classmethod
    def load(cls, path: str | Path) -> PieceSet:
        """Reads overrides from a JSON file."""
        obj = jsonin.loads(read_bytes(path, "pieces file"), str(path))
        return cls.from_json(obj, str(path))

    def to_json(self) -> dict[str, Any]:
        """Every field, as JSON."""
        d = {f.name: getattr(self, f.name) for f in fields(self)}
        d["suit_colours"] = dict(self.suit_colours)
        d["segment_colours"] = dict(self.segment_colours)
        return d


DEFAULT_PIECES = PieceSet()
"""The Mesomorph reference piecepack."""
