"""The scene model: what is on the table, in table millimetres.

A :class:`Scene` is the one value that crosses every boundary of the product: vision emits it,
the referee judges it, the log stores it and the dashboard draws it. It is frozen; every change
(a correction, say) makes a new one.

The JSON form is the contract's (``../shared/CONTRACT.md``)::

    {"units": "mm", "hand": false,
     "pieces": [{"kind": "coin", "x": 412.3, "y": 120.9, "suit": "suns", "confidence": 0.98}]}

>>> s = Scene.loads('{"units": "mm", "hand": false, "pieces": '
...                 '[{"kind": "coin", "x": 1.5, "y": 2.0, "suit": "arms"}]}')
>>> s.pieces[0].centre_mm
(1.5, 2.0)
>>> Scene.loads(s.dumps()) == s
True
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import numpy as np

from tabletop.errors import SceneFormatError
from tabletop.files import read_bytes
from tabletop.kinds import PIECE_KINDS

KINDS: tuple[str, ...] = tuple(PIECE_KINDS)
"""Every kind of piece a scene may hold (:data:`tabletop.kinds.PIECE_KINDS`)."""
SUITS: tuple[str, ...] = ("suns", "moons", "crowns", "arms")
FACES: tuple[str, ...] = ("up", "down")
DIE_VALUES: tuple[str, ...] = ("null", "ace", "2", "3", "4", "5")

Point2 = tuple[float, float]
"""A point of the table (or board) frame, ``(x_mm, y_mm)``."""

_PIECE_KEYS = ("kind", "x", "y", "suit", "angle_deg", "face", "color", "id", "value", "confidence")
_SCENE_KEYS = ("units", "hand", "pieces")


def _number(value: Any, what: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise SceneFormatError(f"{what} must be a number, not {json.dumps(value)}")
    if not math.isfinite(value):
        raise SceneFormatError(f"{what} must be finite, not {value}")
    return float(value)


@dataclass(frozen=True, slots=True)
class Piece:
    """One piece on the table.

    Attributes:
        kind: One of :data:`KINDS`.
        x_mm: Centre of the piece's footprint on the table, table frame, millimetres.
        y_mm: As ``x_mm``.
        suit: One of :data:`SUITS` or None when unknown or not applicable.
        angle_deg: A tile's rotation in [0, 90) degrees; None for round pieces.
        face: ``"up"`` (suit side) or ``"down"`` (back), or None.
        color: A colour name (Worm Up segments: ``"red"``...), or None.
        id: A marker id (tokens), or None.
        value: A die's face (:data:`DIE_VALUES`), or None.
        confidence: How sure vision is, in [0, 1], or None (a piece not seen by vision).
    """

    kind: str
    x_mm: float
    y_mm: float
    suit: str | None = None
    angle_deg: float | None = None
    face: str | None = None
    color: str | None = None
    id: int | None = None
    value: str | None = None
    confidence: float | None = None

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise SceneFormatError(
                f"piece kind must be one of {', '.join(KINDS)}, not {self.kind!r}")
        _number(self.x_mm, "piece x")
        _number(self.y_mm, "piece y")
        if self.suit is not None and self.suit not in SUITS:
            raise SceneFormatError(
                f"suit must be one of {', '.join(SUITS)} or null, not {self.suit!r}")
        if self.angle_deg is not None:
            a = _number(self.angle_deg, "angle_deg")
            if not 0.0 <= a < 90.0:
                raise SceneFormatError(f"a tile's angle_deg must be in [0, 90), not {a}")
        if self.face is not None and self.face not in FACES:
            raise SceneFormatError(f"face must be 'up' or 'down', not {self.face!r}")
        if self.color is not None and not isinstance(self.color, str):
            raise SceneFormatError(f"color must be a string, not {self.color!r}")
        if self.id is not None and (isinstance(self.id, bool) or not isinstance(self.id, int)
                                    or self.id < 0):
            raise SceneFormatError(f"id must be a non-negative integer, not {self.id!r}")
        if self.value is not None and self.value not in DIE_VALUES:
            raise SceneFormatError(f"a die value must be one of {', '.join(DIE_VALUES)}")
        if self.confidence is not None:
            c = _number(self.confidence, "confidence")
            if not 0.0 <= c <= 1.0:
                raise SceneFormatError(f"confidence must be in [0, 1], not {c}")

    @classmethod
    def tile(cls, x_mm: float, y_mm: float, angle_deg: float = 0.0, face: str = "down",
             suit: str | None = None, **kw: Any) -> Piece:
        """A tile, with any angle folded into [0, 90) (a square looks the same every 90°).

        >>> Piece.tile(0, 0, angle_deg=-10).angle_deg
        80.0
        """
        a = float(angle_deg) % 90.0
        if a >= 90.0:  # -1e-17 % 90 == 90.0 in floating point
            a = 0.0
        return cls("tile", float(x_mm), float(y_mm), suit=suit, angle_deg=a, face=face, **kw)

    @property
    def centre_mm(self) -> tuple[float, float]:
        """The centre ``(x, y)`` in table millimetres."""
        return (self.x_mm, self.y_mm)

    def moved_to(self, x_mm: float, y_mm: float) -> Piece:
        """The same piece at another place."""
        return replace(self, x_mm=float(x_mm), y_mm=float(y_mm))

    def to_json(self) -> dict[str, Any]:
        """The contract's JSON object for this piece (keys in a fixed order)."""
        out: dict[str, Any] = {"kind": self.kind, "x": self.x_mm, "y": self.y_mm}
        if self.kind == "tile":
            out["angle_deg"] = self.angle_deg if self.angle_deg is not None else 0.0
            out["face"] = self.face
            out["suit"] = self.suit
        elif self.kind == "coin":
            out["suit"] = self.suit
            if self.face is not None:
                out["face"] = self.face
        else:
            for key in ("suit", "angle_deg", "face"):
                if getattr(self, key) is not None:
                    out[key] = getattr(self, key)
        for key in ("color", "id", "value", "confidence"):
            if getattr(self, key) is not None:
                out[key] = getattr(self, key)
        return out

    @classmethod
    def from_json(cls, obj: Any, where: str = "piece") -> Piece:
        """Reads a piece from the contract's JSON object.

        Raises:
            SceneFormatError: naming ``where`` and what is wrong.
        """
        if not isinstance(obj, Mapping):
            raise SceneFormatError(f"{where}: must be a JSON object, not {type(obj).__name__}")
        unknown = sorted(set(obj) - set(_PIECE_KEYS))
        if unknown:
            raise SceneFormatError(f"{where}: unknown field {unknown[0]!r}")
        for key in ("kind", "x", "y"):
            if key not in obj:
                raise SceneFormatError(f"{where}: missing field {key!r}")
        try:
            return cls(
                kind=obj["kind"],
                x_mm=_number(obj["x"], "x"),
                y_mm=_number(obj["y"], "y"),
                suit=obj.get("suit"),
                angle_deg=None if obj.get("angle_deg") is None else _number(obj["angle_deg"],
                                                                            "angle_deg"),
                face=obj.get("face"),
                color=obj.get("color"),
                id=obj.get("id"),
                value=obj.get("value"),
                confidence=None if obj.get("confidence") is None else _number(obj["confidence"],
                                                                              "confidence"),
            )
        except SceneFormatError as exc:
            raise SceneFormatError(f"{where}: {exc}") from None


@dataclass(frozen=True, slots=True)
class Scene:
    """Everything on the table at one moment.

    Attributes:
        pieces: The pieces, in no particular order; indices into it name pieces in verdicts.
        hand: True when a hand or arm is over the play area (such a scene is never refereed).
    """

    pieces: tuple[Piece, ...] = field(default_factory=tuple)
    hand: bool = False

    def __post_init__(self) -> None:
        if not isinstance(self.pieces, tuple):
            object.__setattr__(self, "pieces", tuple(self.pieces))
        for p in self.pieces:
            if not isinstance(p, Piece):
                raise SceneFormatError(f"a scene holds pieces, not {type(p).__name__}")
        if not isinstance(self.hand, bool):
            raise SceneFormatError("hand must be true or false")

    @classmethod
    def empty(cls) -> Scene:
        """A table with nothing on it."""
        return cls(())

    def __len__(self) -> int:
        return len(self.pieces)

    def of_kind(self, *kinds: str) -> tuple[Piece, ...]:
        """The pieces of the given kinds, in scene order."""
        return tuple(p for p in self.pieces if p.kind in kinds)

    def indices_of_kind(self, *kinds: str) -> list[int]:
        """Indices into :attr:`pieces` of the pieces of the given kinds."""
        return [i for i, p in enumerate(self.pieces) if p.kind in kinds]

    def centres_mm(self, *kinds: str) -> np.ndarray:
        """Centres as a float array of shape (N, 2), of all pieces or of the given kinds."""
        ps = self.of_kind(*kinds) if kinds else self.pieces
        return np.array([[p.x_mm, p.y_mm] for p in ps], dtype=float).reshape(-1, 2)

    def with_piece(self, piece: Piece) -> Scene:
        """A new scene with one more piece (at the end)."""
        return replace(self, pieces=(*self.pieces, piece))

    def without_piece(self, index: int) -> Scene:
        """A new scene with the piece at ``index`` removed."""
        self._check_index(index)
        return replace(self, pieces=self.pieces[:index] + self.pieces[index + 1:])

    def with_piece_replaced(self, index: int, piece: Piece) -> Scene:
        """A new scene with the piece at ``index`` replaced."""
        self._check_index(index)
        return replace(self, pieces=(*self.pieces[:index], piece, *self.pieces[index + 1:]))

    def with_hand(self, hand: bool) -> Scene:
        """The same pieces with another hand flag."""
        return replace(self, hand=bool(hand))

    def _check_index(self, index: int) -> None:
        if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < len(self):
            raise SceneFormatError(f"piece index {index!r} is not in a scene of {len(self)} pieces")

    def to_json(self) -> dict[str, Any]:
        """The contract's JSON object."""
        return {"units": "mm", "hand": self.hand, "pieces": [p.to_json() for p in self.pieces]}

    def dumps(self, **kw: Any) -> str:
        """The contract's JSON text."""
        return json.dumps(self.to_json(), **kw)

    @classmethod
    def from_json(cls, obj: Any, where: str = "scene") -> Scene:
        """Reads a scene from its JSON object (``units`` and ``hand`` may be left out).

        Raises:
            SceneFormatError: naming ``where`` and what is wrong.
        """
        if not isinstance(obj, Mapping):
            raise SceneFormatError(f"{where}: must be a JSON object, not {type(obj).__name__}")
        unknown = sorted(set(obj) - set(_SCENE_KEYS) - {"type"})
        if unknown:
            raise SceneFormatError(f"{where}: unknown field {unknown[0]!r}")
        if obj.get("units", "mm") != "mm":
            raise SceneFormatError(f"{where}: units must be 'mm', not {obj.get('units')!r}")
        pieces = obj.get("pieces")
        if not isinstance(pieces, list):
            raise SceneFormatError(f"{where}: 'pieces' must be a list")
        hand = obj.get("hand", False)
        if not isinstance(hand, bool):
            raise SceneFormatError(f"{where}: 'hand' must be true or false")
        return cls(tuple(Piece.from_json(p, f"{where}: piece {i}") for i, p in enumerate(pieces)),
                   hand=hand)

    @classmethod
    def loads(cls, text: str | bytes, where: str = "scene") -> Scene:
        """Reads a scene from JSON text."""
        from tabletop import jsonin  # strict: no NaN, no stack-deep nesting, no huge integers

        return cls.from_json(jsonin.loads(text, where, SceneFormatError), where)

    @classmethod
    def load(cls, path: str | Path) -> Scene:
        """Reads a scene from a JSON file."""
        return cls.loads(read_bytes(path, "scene file", SceneFormatError), where=str(path))

    @classmethod
    def of(cls, pieces: Iterable[Piece], hand: bool = False) -> Scene:
        """A scene of the given pieces."""
        return cls(tuple(pieces), hand=hand)
