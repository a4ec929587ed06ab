"""The gap fit on a whole scene, for the dashboard and ``tabletop fit`` (cached per scene).

Every piece is an obstacle except dice and pawns (players keep them on the table) and except a
coin lying at the start point (the coin that slides). Obstacle sets (and so their roadmaps,
see :func:`referee.geometry.fit.roadmap_for`) are kept for the last few scenes, so repeated
queries on one table cost only the query.

>>> from tabletop.scene import Piece, Scene
>>> table = Scene.of([Piece.tile(0, 0), Piece("coin", 100, 0, suit="suns")])
>>> fit_in_scene(table, (100, 0), (100, 200)).fits
True
"""

from __future__ import annotations

import math
from collections import OrderedDict

from referee.geometry.crossing import Crossing, cross_straight
from referee.geometry.fit import FitResult, fit_path
from referee.geometry.obstacles import ObstacleSet, Point2
from tabletop.pieceset import DEFAULT_PIECES, PieceSet
from tabletop.scene import Scene

IGNORED_KINDS = ("die", "pawn")
_CACHE: OrderedDict[tuple[object, ...], ObstacleSet] = OrderedDict()
_CACHE_SIZE = 8


def scene_obstacles(scene: Scene, pieces: PieceSet = DEFAULT_PIECES,
                    exclude: tuple[int, ...] = ()) -> ObstacleSet:
    """The scene's obstacles (labels are scene indices), built once per scene and cached."""
    sizes = (pieces.coin_diameter_mm, pieces.tile_mm, pieces.die_mm, pieces.post_diameter_mm,
             pieces.segment_diameter_mm, pieces.token_mm)
    key = (scene, exclude, sizes)
    hit = _CACHE.get(key)
    if hit is not None:
        _CACHE.move_to_end(key)
        return hit
    keep = [i for i, p in enumerate(scene.pieces)
            if p.kind not in IGNORED_KINDS and i not in exclude]
    obs = ObstacleSet.from_pieces([scene.pieces[i] for i in keep], pieces, keep)
    _CACHE[key] = obs
    while len(_CACHE) > _CACHE_SIZE:
        _CACHE.popitem(last=False)
    return obs


def _moving(scene: Scene, start_mm: Point2, pieces: PieceSet) -> tuple[int, ...]:
    """The coin lying on the start point (the one that slides), as a tuple of indices."""
    sx, sy = start_mm
    return tuple(i for i, p in enumerate(scene.pieces)
                 if p.kind == "coin" and math.hypot(p.x_mm - sx, p.y_mm - sy)
                 <= pieces.coin_radius_mm)


def crossing_in_scene(scene: Scene, start_mm: Point2, goal_mm: Point2,
                      pieces: PieceSet = DEFAULT_PIECES,
                      coin_diameter_mm: float | None = None) -> Crossing:
    """Does a coin go straight from ``start_mm`` to ``goal_mm``, through the gaps on the way
    (the gap the player points at; one point, twice, asks about the gap nearest it)?"""
    d = pieces.coin_diameter_mm if coin_diameter_mm is None else coin_diameter_mm
    obstacles = scene_obstacles(scene, pieces, _moving(scene, start_mm, pieces))
    return cross_straight(obstacles, start_mm, goal_mm, d)


def fit_in_scene(scene: Scene, start_mm: Point2, goal_mm: Point2,
                 pieces: PieceSet = DEFAULT_PIECES,
                 coin_diameter_mm: float | None = None) -> FitResult:
    """Can a coin slide from ``start_mm`` to ``goal_mm`` between the pieces of ``scene``?"""
    d = pieces.coin_diameter_mm if coin_diameter_mm is None else coin_diameter_mm
    return fit_path(scene_obstacles(scene, pieces, _moving(scene, start_mm, pieces)),
                    start_mm, goal_mm, d)
