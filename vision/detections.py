"""One frozen value for what a stage found: parallel arrays, one row per piece.

Like supervision's ``Detections``, but frozen (arrays not writeable), so no consumer can change
another's view of a frame.

>>> d = Detections.of(centre_mm=[[1.0, 2.0], [3.0, 4.0]], kind=["coin", "post"],
...                   confidence=[0.9, 0.5])
>>> len(d), d[d.kind == "coin"].centre_mm.tolist()
(2, [[1.0, 2.0]])
>>> len(Detections.merge([d, Detections.empty()]))
2
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, fields
from typing import Any

import numpy as np

from tabletop.scene import Piece


def _frozen(a: Any, dtype: Any, shape_tail: tuple[int, ...] = ()) -> np.ndarray:
    arr = np.array(a, dtype=dtype)
    if arr.size == 0:
        arr = np.zeros((0, *shape_tail), dtype=dtype)
    arr.setflags(write=False)
    return arr


@dataclass(frozen=True, eq=False)
class Detections:
    """Pieces found in one frame (N rows).

    Attributes:
        centre_mm: (N, 2) float, the foot of each piece on the table (after height correction).
        seen_mm: (N, 2) float, where the piece's top was seen on the table plane.
        kind: (N,) str, a :data:`tabletop.scene.KINDS` value.
        confidence: (N,) float in [0, 1].
        suit: (N,) object, a suit name or None.
        angle_deg: (N,) float, a tile's angle in [0, 90), NaN for others.
        face: (N,) object, ``"up"``/``"down"`` or None.
        color: (N,) object, a colour name or None.
        marker_id: (N,) int, a token's marker id, -1 for none.
    """

    centre_mm: np.ndarray
    seen_mm: np.ndarray
    kind: np.ndarray
    confidence: np.ndarray
    suit: np.ndarray
    angle_deg: np.ndarray
    face: np.ndarray
    color: np.ndarray
    marker_id: np.ndarray

    def __post_init__(self) -> None:
        n = len(self.kind)
        spec = {"centre_mm": (float, (2,)), "seen_mm": (float, (2,)), "kind": (object, ()),
                "confidence": (float, ()), "suit": (object, ()), "angle_deg": (float, ()),
                "face": (object, ()), "color": (object, ()), "marker_id": (int, ())}
        for f in fields(self):
            dtype, tail = spec[f.name]
            arr = _frozen(getattr(self, f.name), dtype, tail)
            if arr.shape != (n, *tail):
                raise ValueError(f"Detections.{f.name} has shape {arr.shape}, not {(n, *tail)}")
            object.__setattr__(self, f.name, arr)

    @classmethod
    def of(cls, centre_mm: Any, kind: Sequence[str], confidence: Any = None,
           seen_mm: Any = None, suit: Any = None, angle_deg: Any = None, face: Any = None,
           color: Any = None, marker_id: Any = None) -> Detections:
        """Detections with the missing columns filled with their blanks."""
        n = len(kind)
        none = [None] * n
        return cls(
            centre_mm=np.asarray(centre_mm, float).reshape(n, 2),
            seen_mm=np.asarray(centre_mm if seen_mm is None else seen_mm, float).reshape(n, 2),
            kind=np.array(list(kind), dtype=object),
            confidence=np.ones(n) if confidence is None else confidence,
            suit=np.array(none if suit is None else list(suit), dtype=object),
            angle_deg=np.full(n, np.nan) if angle_deg is None else angle_deg,
            face=np.array(none if face is None else list(face), dtype=object),
            color=np.array(none if color is None else list(color), dtype=object),
            marker_id=np.full(n, -1) if marker_id is None else marker_id,
        )

    @classmethod
    def empty(cls) -> Detections:
        """No pieces."""
        return cls.of(np.zeros((0, 2)), [])

    def __len__(self) -> int:
        return len(self.kind)

    def __getitem__(self, index: Any) -> Detections:
        """Rows by boolean mask, index array or slice, as a new value."""
        if isinstance(index, int | np.integer):
            index = [int(index)]
        return Detections(**{f.name: np.asarray(getattr(self, f.name))[index]
                             for f in fields(self)})

    @classmethod
    def merge(cls, parts: Iterable[Detections]) -> Detections:
        """All rows of several values, in order."""
        parts = [p for p in parts if len(p)]
        if not parts:
            return cls.empty()
        return cls(**{f.name: np.concatenate([getattr(p, f.name) for p in parts])
                      for f in fields(cls)})

    def to_pieces(self) -> tuple[Piece, ...]:
        """The rows as scene pieces (positions rounded to 0.01 mm)."""
        out = []
        for i in range(len(self)):
            kind = str(self.kind[i])
            x, y = (round(float(v), 2) for v in self.centre_mm[i])
            conf = round(float(np.clip(self.confidence[i], 0.0, 1.0)), 3)
            if kind == "tile":
                out.append(Piece.tile(x, y, round(float(self.angle_deg[i]), 2) % 90.0,
                                      self.face[i] or "down", self.suit[i], confidence=conf))
                continue
            out.append(Piece(kind, x, y, suit=self.suit[i], face=self.face[i],
                             color=self.color[i],
                             id=int(self.marker_id[i]) if self.marker_id[i] >= 0 else None,
                             confidence=conf))
        return tuple(out)
