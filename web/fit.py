"""The dashboard's gap tool: can a coin slide from one point of the table to another?

It asks :func:`referee.geometry.fit_path` on the accepted table (or the last table seen), with
the pieces as obstacles, except the coin (if any) that sits on the start point: that is the coin
being moved.
"""

from __future__ import annotations

import importlib
import math
from typing import Any

from referee.record import Referee
from tabletop.errors import InputError
from tabletop.pieceset import PieceSet
from tabletop.scene import Piece, Scene


def _geometry() -> Any:
    try:
        return importlib.import_module("referee.geometry")
    except ImportError:
        raise InputError("the gap check is not available in this build") from None


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
    """The gap check as JSON: ``fits``, ``clearance_mm``, ``path``, ``pinch``, ``from``, ``to``.

    Raises:
        InputError: no table yet, or no gap check in this build.
    """
    if scene_json is None:
        raise InputError("there is no table yet to check a gap on")
    scene = Scene.from_json(scene_json)
    pieces = referee.game.pieces if referee.game is not None else PieceSet()
    geometry = _geometry()
    obstacles = geometry.ObstacleSet.from_pieces(obstacles_for(scene, start_mm, pieces), pieces)
    result = geometry.fit_path(obstacles, start_mm, goal_mm, pieces.coin_diameter_mm)
    path = [[float(x), float(y)] for x, y in (result.path_mm or [])]
    pinch = None if result.pinch_mm is None else [float(v) for v in result.pinch_mm]
    clearance = float(result.clearance_mm)
    return {"from": list(start_mm), "to": list(goal_mm), "fits": bool(result.fits),
            "clearance_mm": round(clearance, 2) if math.isfinite(clearance) else None,
            "path": path, "pinch": pinch, "coin_mm": pieces.coin_diameter_mm}
