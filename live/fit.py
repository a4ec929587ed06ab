"""The dashboard's gap tool: does a coin fit through the gap the player points at?

The first answer is the crossing itself (:func:`referee.geometry.cross_straight`): the
narrowest gap on the straight way between the two clicked points (or the gap nearest one point
clicked twice), its width against the coin's, the pinch and the two edges that make it. The
second is whether a way round exists (:func:`referee.geometry.fit_path`). Both on the accepted
table (or the last table seen), with the pieces as obstacles, except the coin (if any) that sits
on the start point: that is the coin being moved.
"""

from __future__ import annotations

import math
from typing import Any

from referee import geometry
from referee.record import Referee
from tabletop.errors import InputError
from tabletop.pieceset import PieceSet
from tabletop.scene import Piece, Scene


def obstacles_for(scene: Scene, start_mm: tuple[float, float],
                  pieces: PieceSet) -> tuple[Piece, ...]:
    """The scene's pieces without the coin lying on ``start_mm`` (the one that moves)."""
    r = pieces.coin_radius_mm
    moving = [i for i, p in enumerate(scene.pieces)
              if p.kind == "coin" and math.dist(p.centre_mm, start_mm) <= r]
    skip = min(moving, key=lambda i: math.dist(scene.pieces[i].centre_mm, start_mm),
               default=None)
    return tuple(p for i, p in enumerate(scene.pieces) if i != skip)


def check_fit(scene_json: dict[str, Any] | None, start_mm: tuple[float, float],
              goal_mm: tuple[float, float], referee: Referee) -> dict[str, Any]:
    """The gap check as JSON: the crossing (``straight_fits``, ``straight_clearance_mm``,
    ``straight_pinch``, ``straight_edges``), the way round (``fits``, ``clearance_mm``,
    ``path``, ``pinch``), ``from``, ``to``, ``coin_mm`` and ``text``: the answer in words
    (two lines: the crossing, then the way round).

    Raises:
        InputError: no table yet.
    """
    if scene_json is None:
        raise InputError("there is no table yet to check a gap on")
    scene = Scene.from_json(scene_json)
    pieces = referee.game.pieces if referee.game is not None else PieceSet()
    obstacles = geometry.ObstacleSet.from_pieces(obstacles_for(scene, start_mm, pieces), pieces)
    coin = pieces.coin_diameter_mm
    one_point = math.dist(start_mm, goal_mm) < 1e-9
    straight = geometry.cross_straight(obstacles, start_mm, goal_mm, coin)
    out = {"from": list(start_mm), "to": list(goal_mm), "coin_mm": coin,
           "one_point": one_point, **straight.to_json()}
    if one_point:
        out.update(fits=straight.fits, clearance_mm=round(straight.clearance_mm, 2),
                   path=[], pinch=out["straight_pinch"])
    else:
        result = geometry.fit_path(obstacles, start_mm, goal_mm, coin)
        clearance = float(result.clearance_mm)
        out.update(fits=bool(result.fits),
                   clearance_mm=round(clearance, 2) if math.isfinite(clearance) else None,
                   path=[[float(x), float(y)] for x, y in (result.path_mm or [])],
                   pinch=None if result.pinch_mm is None else [float(v)
                                                               for v in result.pinch_mm])
    out["text"] = fit_words(out)
    return out


def _mm(v: float, coin_mm: float | None = None) -> str:
    """A width for people: one decimal, two when it is that close to the coin.

    >>> _mm(15.3), _mm(48.0), _mm(19.04, 19.05)
    ('15.3', '48', '19.04')
    """
    digits = 2 if coin_mm is not None and abs(v - coin_mm) < 0.1 else 1
    text = f"{v:.{digits}f}"
    return text.rstrip("0").rstrip(".") if "." in text else text


def fit_words(fit: dict[str, Any]) -> list[str]:
    """The gap check in two plain lines: the crossing, then the way round.

    >>> for line in fit_words({"straight_fits": False, "straight_clearance_mm": 15.3,
    ...         "straight_pinch": [1, 2], "coin_mm": 19.05, "fits": True,
    ...         "clearance_mm": 62.7, "path": [[0, 0], [5, 5], [9, 9]], "one_point": False}):
    ...     print(line)
    Does not fit here: 15.3 mm, the coin needs 19.05 mm.
    A way round exists: 62.7 mm at its narrowest (drawn).
    """
    coin = f"{fit['coin_mm']:.2f}"
    w = fit["straight_clearance_mm"]
    if fit["straight_pinch"] is None:
        first = f"Fits here: nothing narrows the straight way (the coin needs {coin} mm)."
    elif w <= 0:
        first = f"Does not fit here: the straight way runs into a piece (the coin needs {coin} mm)."
    elif fit["straight_fits"]:
        first = f"Fits here: {_mm(w, fit['coin_mm'])} mm, the coin needs {coin} mm."
    else:
        first = f"Does not fit here: {_mm(w, fit['coin_mm'])} mm, the coin needs {coin} mm."
    if fit.get("one_point"):
        return [first, "Click two points to ask about a whole way."]
    if fit["fits"] and len(fit.get("path") or []) > 2:
        second = f"A way round exists: {_mm(fit['clearance_mm'])} mm at its narrowest (drawn)."
    elif fit["fits"] or fit["straight_fits"]:
        second = "It slides straight there."
    else:
        second = "No way round either: the coin cannot get there."
    return [first, second]
