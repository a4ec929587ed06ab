"""The kinds of piece: the one list every layer reads.

Each kind has a footprint (a square or a disc), the :class:`tabletop.pieceset.PieceSet` field
that measures it (a square's side, a disc's diameter), its height, and its layer in a drawing
(lower layers are drawn first). ``tabletop.scene.KINDS`` (what a scene may hold), the piece
set's :meth:`~tabletop.pieceset.PieceSet.size_mm`, the input limits, the renderer's heights,
the exported diagram and the dashboard's diagram read it; a game names the kinds it uses
(``Game.piece_kinds``), and a vision stage finds each kind it can see.

>>> PIECE_KINDS["tile"].outline, PIECE_KINDS["tile"].size_field
('square', 'tile_mm')
>>> [k.name for k in sorted(PIECE_KINDS.values(), key=lambda k: k.layer)][:3]
['tile', 'token', 'post']
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

OUTLINES: tuple[str, ...] = ("square", "round")


@dataclass(frozen=True)
class PieceKind:
    """One kind of piece.

    Attributes:
        name: As in a scene's ``kind``.
        outline: ``square`` or ``round``: its footprint on the table.
        size_field: The ``PieceSet`` field giving its side (square) or diameter (round), mm.
        height_field: The ``PieceSet`` field giving its height, or None (``height_mm`` then).
        height_mm: Its height when no field gives it.
        layer: Its place in a drawing, lowest first (tiles under the coins on them).
    """

    name: str
    outline: str
    size_field: str
    height_field: str | None
    layer: int
    height_mm: float = 0.0

    def __post_init__(self) -> None:
        if self.outline not in OUTLINES:
            raise ValueError(f"kind {self.name!r}: outline must be one of {', '.join(OUTLINES)}")

    def to_json(self) -> dict[str, Any]:
        """As the dashboard reads it."""
        return {"name": self.name, "outline": self.outline, "size_field": self.size_field,
                "layer": self.layer}


PIECE_KINDS: Mapping[str, PieceKind] = MappingProxyType({k.name: k for k in (
    PieceKind("coin", "round", "coin_diameter_mm", "coin_thickness_mm", layer=5),
    PieceKind("tile", "square", "tile_mm", "tile_thickness_mm", layer=0),
    PieceKind("post", "round", "post_diameter_mm", "post_height_mm", layer=2),
    PieceKind("segment", "round", "segment_diameter_mm", "segment_height_mm", layer=4),
    PieceKind("token", "square", "token_mm", "token_thickness_mm", layer=1),
    PieceKind("die", "square", "die_mm", "die_mm", layer=3),
    PieceKind("pawn", "round", "coin_diameter_mm", None, layer=6, height_mm=25.0),
)})
"""Every kind, by name, in the contract's order (coin, tile, post, segment, token; die, pawn)."""
