"""Two readings of one still table in doubt: what one did not see, the other may have.

A still table is read more than once (the pipeline reads a doubtful table again; a table in
doubt is read again after every hand). When a reading in doubt is followed by another that
agrees with it on every piece both show (nothing moved between them) but lacks a piece the
first one saw, that piece is still there: segments and posts do not vanish (issue 13). The
second reading is completed from the first, for the kinds it is short of only.

Every piece of a reading completed this way was seen in one of the two readings, and the two
agree on the pieces both show: complete enough for a foul (see
:meth:`referee.worm_up.game.WormUp.step`).

>>> from tabletop.scene import Piece, Scene
>>> first = Scene.of([Piece("segment", 0.0, 0.0, color="red"),
...                   Piece("segment", 20.0, 0.0, color="red")])
>>> second = Scene.of([Piece("segment", 1.0, 0.0, color="red")])
>>> merged = completed(first, second, {"red": 2}, 4, 8.0)
>>> [p.centre_mm for p in merged.pieces]
[(1.0, 0.0), (20.0, 0.0)]
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import replace

from tabletop.scene import Piece, Scene


def _group(p: Piece) -> tuple[str, str | None] | None:
    """The kind a piece counts among (a colour's segments, the posts); None: not counted."""
    if p.kind == "segment":
        return ("segment", p.color)
    if p.kind == "post":
        return ("post", None)
    return None


def agree(first: Scene, second: Scene, within_mm: float) -> bool:
    """Whether two readings show the same segments and posts: one to one, each of the same
    kind (a segment of the same colour) within ``within_mm`` of its partner.

    >>> a = Scene.of([Piece("post", 0.0, 0.0), Piece("segment", 50.0, 0.0, color="red")])
    >>> b = Scene.of([Piece("segment", 52.0, 1.0, color="red"), Piece("post", 1.0, 0.0)])
    >>> agree(a, b, 6.0), agree(a, Scene.of(list(a.pieces[:1])), 6.0)
    (True, False)
    """
    left = [p for p in first.pieces if _group(p) is not None]
    right = [p for p in second.pieces if _group(p) is not None]
    if len(left) != len(right):
        return False
    pairs = sorted((math.dist(p.centre_mm, q.centre_mm), i, j)
                   for i, p in enumerate(left) for j, q in enumerate(right)
                   if _group(p) == _group(q) and math.dist(p.centre_mm, q.centre_mm) <= within_mm)
    used_left: set[int] = set()
    used_right: set[int] = set()
    for _, i, j in pairs:
        if i not in used_left and j not in used_right:
            used_left.add(i)
            used_right.add(j)
    return len(used_left) == len(left)


def completed(first: Scene, second: Scene, segments: Mapping[str, int], posts: int,
              still_mm: float) -> Scene | None:
    """``second`` with the pieces of ``first`` it lacks appended (its indices stay valid),
    for each colour short of its ``segments`` and for the posts when fewer than ``posts``;
    None when the readings disagree (a piece of ``second`` not within ``still_mm`` of a piece
    of the same kind in ``first``, beyond what ``first`` itself was short of: the table
    changed) or nothing is added."""
    wanted: dict[tuple[str, str | None], int] = {("segment", c): n for c, n in segments.items()}
    wanted[("post", None)] = posts
    # a piece of ``second`` that ``first`` lacks is allowed where ``first`` was short itself
    unseen = dict(wanted)
    for q in first.pieces:
        g = _group(q)
        if g in unseen:
            unseen[g] -= 1
    used: set[int] = set()
    counts: dict[tuple[str, str | None], int] = {}
    for p in second.pieces:
        g = _group(p)
        if g is None:
            continue
        counts[g] = counts.get(g, 0) + 1
        near = [(math.dist(p.centre_mm, q.centre_mm), j) for j, q in enumerate(first.pieces)
                if j not in used and _group(q) == g
                and math.dist(p.centre_mm, q.centre_mm) <= still_mm]
        if near:
            used.add(min(near)[1])
        elif unseen.get(g, 0) > 0:
            unseen[g] -= 1
        else:
            return None
    added: list[Piece] = []
    for j, q in enumerate(first.pieces):
        g = _group(q)
        if j in used or g is None or g not in wanted:
            continue
        if counts.get(g, 0) < wanted[g]:
            counts[g] = counts.get(g, 0) + 1
            added.append(q)
    if not added:
        return None
    return replace(second, pieces=(*second.pieces, *added))
