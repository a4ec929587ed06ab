"""One worm misread, the others judged (issue 13): a table where one worm is not read with its
segments (read short, or over with phantoms) while another worm moved.

Segments do not appear or vanish, so the worm misread (``doubtful``) is in doubt, not a foul;
but the other worms' moves are read whole and are judged from what is seen. The worm in doubt
is taken to lie where it lay (:func:`put_back`), and the verdict on the mover stands only when
it cannot depend on it (:func:`depends_on`):

- the worm in doubt is *proved still* when what is seen of it shows no move: read short with
  every segment seen where it lay and its tail among them (a move takes the tail first:
  :func:`referee.worm_up.short_counts.counts_possible` is ``(0,)``), or read over with every
  place it lay read again (a segment more is a phantom: segments do not appear). Then it lies
  where it lay, and every rule is judged as on a whole table;
- otherwise it may have moved unseen: a verdict on another worm stands when that worm's new
  segments lie clear of every place the worm in doubt lay and every segment of it seen (a
  touch with it is the one rule it can change), and the worm in doubt is not due before the
  mover (whether the mover went out of order depends on it).

>>> from referee.worm_up.state import Worm
>>> w = Worm("blue", ((0.0, 0.0), (20.0, 0.0), (40.0, 0.0)))
>>> proved_still(w, [(0.5, 0.0), (20.0, 0.5)], 8.0)  # its tail where it lay
True
>>> proved_still(w, [(20.0, 0.0), (40.0, 0.0)], 8.0)  # its tail not seen: it may have moved 1
False
>>> proved_still(w, [(0.0, 0.0), (20.0, 0.0), (40.0, 0.0), (90.0, 0.0)], 8.0)
True
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from referee.worm_up import geometry as geo
from referee.worm_up.short_counts import counts_possible
from referee.worm_up.state import Worm, WormUpState
from tabletop.scene import Piece, Point2, Scene


def proved_still(worm: Worm, seen: Sequence[Point2], still_mm: float) -> bool:
    """Whether ``seen`` (the segments read of ``worm``, too few or too many) shows it did not
    move (see the module's notes)."""
    old = worm.centres_mm
    if len(seen) > len(old):
        return len(geo.match_still(old, seen, still_mm)) == len(old)
    return bool(seen) and counts_possible(old, seen, still_mm) == (0,)


def put_back(scene: Scene, worm: Worm) -> Scene:
    """``scene`` with ``worm``'s segments read left out of the reading (their colour unread:
    the indices of the other pieces stay) and its segments where it lay appended."""
    pieces = tuple(replace(p, color=None) if p.kind == "segment" and p.color == worm.player
                   else p for p in scene.pieces)
    return replace(scene, pieces=(*pieces, *(Piece("segment", x, y, color=worm.player)
                                             for x, y in worm.centres_mm)))


def due_before(state: WormUpState, doubtful: str, mover: str) -> bool:
    """Whether ``doubtful`` has not moved this round and comes before ``mover`` in the move
    order (or ``mover`` is not in it)."""
    if state.reveal is None or doubtful in state.moved:
        return False
    order = [m.player for m in state.reveal.order]
    if doubtful not in order:
        return False
    return mover not in order or order.index(doubtful) < order.index(mover)


def depends_on(worm: Worm, seen: Sequence[Point2], new: Sequence[Point2], reach_mm: float
               ) -> bool:
    """Whether segments laid at ``new`` may touch the worm in doubt: within ``reach_mm`` of a
    place it lay or a segment of it seen."""
    return any(geo.dist(c, o) <= reach_mm for c in new for o in (*worm.centres_mm, *seen))
