"""Comparing two tables: which pieces stayed, which went, which came.

Dice and pawns are never compared (players roll and keep them on the table).

>>> from tabletop.scene import Piece, Scene
>>> a = Scene.of([Piece("coin", 0, 0, suit="suns"), Piece.tile(100, 0)])
>>> b = Scene.of([Piece.tile(101, 0), Piece("coin", 30, 0, suit="suns")])
>>> scene_diff(a, b, 4.0, 6.0)
([0], [1])
"""

from __future__ import annotations

import math

from tabletop.scene import Piece, Scene

IGNORED_KINDS = ("die", "pawn")


def _key(p: Piece) -> tuple[str, str | None, str | None]:
    # a tile is known by its place, angle and face; its suit is no part of its identity (a
    # face-up tile's suit may be misread now and then)
    if p.kind == "tile":
        return (p.kind, None, p.face)
    return (p.kind, p.suit, None)


def _angle_close(a: Piece, b: Piece, tol_deg: float) -> bool:
    if a.kind != "tile":
        return True
    d = abs((a.angle_deg or 0.0) - (b.angle_deg or 0.0)) % 90.0
    return min(d, 90.0 - d) <= tol_deg


def scene_diff(old: Scene, new: Scene, same_place_mm: float, same_angle_deg: float,
               only: set[int] | None = None) -> tuple[list[int], list[int]]:
    """Pieces of ``old`` not found in ``new`` and pieces of ``new`` not found in ``old``.

    A piece is found when one of the same kind, suit (and face, for tiles) lies within
    ``same_place_mm`` (tiles also turned less than ``same_angle_deg``); the nearest pairs are
    matched first.
    """
    groups: dict[tuple[str, str | None, str | None], tuple[list[int], list[int]]] = {}
    for i, p in enumerate(old.pieces):
        if p.kind not in IGNORED_KINDS:
            groups.setdefault(_key(p), ([], []))[0].append(i)
    for j, p in enumerate(new.pieces):
        if p.kind not in IGNORED_KINDS:
            groups.setdefault(_key(p), ([], []))[1].append(j)
    gone: list[int] = []
    came: list[int] = []
    for olds, news in groups.values():
        if not olds or not news:
            gone.extend(olds)
            came.extend(news)
            continue
        pairs = []
        for ia, i in enumerate(olds):
            a = old.pieces[i]
            for ib, j in enumerate(news):
                b = new.pieces[j]
                dx, dy = a.x_mm - b.x_mm, a.y_mm - b.y_mm
                if abs(dx) <= same_place_mm and abs(dy) <= same_place_mm:
                    d = math.hypot(dx, dy)
                    if d <= same_place_mm and _angle_close(a, b, same_angle_deg):
                        pairs.append((d, ia, ib))
        pairs.sort()
        used_a: set[int] = set()
        used_b: set[int] = set()
        for _, ia, ib in pairs:
            if ia not in used_a and ib not in used_b:
                used_a.add(ia)
                used_b.add(ib)
        gone.extend(olds[k] for k in range(len(olds)) if k not in used_a)
        came.extend(news[k] for k in range(len(news)) if k not in used_b)
    return sorted(gone), sorted(came)


def tiles_as_they_were(old: Scene, new: Scene, same_place_mm: float,
                       same_angle_deg: float) -> bool:
    """Whether ``new`` shows every tile of ``old`` where it was, and no other tile
    (:func:`scene_diff` of the two scenes' tiles alone finds nothing gone and nothing come)."""
    def tiles(sc: Scene) -> Scene:
        return Scene(tuple(p for p in sc.pieces if p.kind == "tile"))

    return scene_diff(tiles(old), tiles(new), same_place_mm, same_angle_deg) == ([], [])
