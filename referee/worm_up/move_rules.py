"""The rules of a Worm Up! move: which worms and posts changed, a worm moved tail to head by
its number, a finish post moved after an X, and the finish line."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from referee.words import and_list, or_list
from referee.worm_up import geometry as geo
from referee.worm_up.rules import MISREAD, Rule, foul
from referee.worm_up.state import Phase, Worm, WormUpState
from referee.worm_up.table import (
    TableRead,
    centroid,
    chain_gap,
    check_no_touch,
    pt,
    read_unsurely,
)
from tabletop.scene import Piece, Point2, Scene

if TYPE_CHECKING:
    from referee.worm_up.game import WormUp


NUDGE_SHARE = 0.6
"""A segment within this share of its width of where it lay has not been moved by a move (a
moved segment lies in front of the old head, a width or more from every old place)."""


def changes(game: WormUp, state: WormUpState, read: TableRead) -> tuple[dict[str, dict[int, int]],
                                                                        list[str], Point2 | None]:
    """Which worms changed and whether a finish post moved.

    A worm all of whose segments lie within :data:`NUDGE_SHARE` of a segment's width of where
    they lay did not move (misread or nudged). A finish post not seen where it stood, while no
    post may move (no X to use it), is taken to stand there still: posts do not vanish, so a
    misread first (see :func:`posts_kept`).

    While no post may move, a post read elsewhere counts as a finish post moved only when it
    is read surely and keeps the strip's length from the finish post that stayed (a swing);
    otherwise the finish post not seen still stands and the other is a shadow.

    Returns:
        ``(still, changed, moved_post)``: per player the matched ``{old k: new k}``; the
        players whose worm changed; the new position of a moved finish post (or None).

    Raises:
        RuleBroken: a finish post is missing while one may move (a doubt), or both moved.
    """
    s = game.settings
    still: dict[str, dict[int, int]] = {}
    changed: list[str] = []
    for w in state.worms:
        m = geo.match_still(w.centres_mm, read.centres(w.player), s.still_mm)
        if len(m) != len(w.centres_mm):
            # a move lays the tail in front of the head: a worm all within a little over half
            # a segment of where it lay was misread or nudged, and did not move
            near = geo.match_still(w.centres_mm, read.centres(w.player),
                                   NUDGE_SHARE * game.diameter_mm)
            if len(near) == len(w.centres_mm) == len(read.centres(w.player)):
                m = near
        still[w.player] = m
        if len(m) != len(w.centres_mm) and not misread_only(game, state, read, w.player, m):
            changed.append(w.player)
    fin = state.finish_posts_mm
    if fin is None:  # the finish posts were never seen (a first table that stood as read)
        return still, changed, None
    new_posts = [c for _, c in read.posts]
    fm = geo.match_still(fin, new_posts, s.post_still_mm)
    if len(fm) == 2:
        return still, changed, None
    starts = state.start_posts_mm or ()
    sm = geo.match_still(starts, new_posts, s.post_still_mm)
    others = [j for j in range(len(new_posts))
              if j not in fm.values() and j not in sm.values()]
    if len(fm) == 1 and others:
        anchor = fin[next(iter(fm))]
        length = geo.dist(*fin)
        j = min(others, key=lambda j: abs(geo.dist(anchor, new_posts[j]) - length))
        swung = abs(geo.dist(anchor, new_posts[j]) - length) <= s.post_distance_tolerance_mm
        sure = not read.unsure(read.posts[j][0], s.misread_confidence)
        if post_may_move(state) or (swung and sure):
            return still, changed, new_posts[j]
        # no post may move, and the post read elsewhere is no swing of the strip read surely:
        # the finish post not seen still stands, the other is a shadow
        return still, changed, None
    if not fm and len(others) >= 2:
        if not all(not read.unsure(read.posts[j][0], s.misread_confidence) for j in others):
            raise foul(Rule.POST, "Both finish posts look moved.", None,
                       [read.posts[j][0] for j in others], pt(fin[0]),
                       doubt="are they hidden or misread?")
        raise foul(Rule.POST, "Both finish posts moved; one of them must stay put.", None,
                   [read.posts[j][0] for j in others], pt(fin[0]))
    if not post_may_move(state):
        return still, changed, None
    raise foul(Rule.PIECES, "A finish post is missing from the table; put it back.", None,
               [i for i, _ in read.posts], pt(fin[0]), doubt=MISREAD)


def misread_only(game: WormUp, state: WormUpState, read: TableRead, player: str,
                 still: Mapping[int, int]) -> bool:
    """Whether ``player``'s worm, which may not move now, changed only in segments vision was
    unsure of (the segments it was sure of all lie where they lay): a misread, not a move
    (a move needs a reading it is sure of to be judged, issue 13)."""
    rv = state.reveal
    if state.phase is Phase.MOVING and rv is not None and player in rv.next_players(state.moved):
        return False
    idx = read.indices(player)
    if len(idx) != len(state.worm(player).centres_mm):
        return False
    kept = set(still.values())
    return all(read.unsure(idx[j], game.settings.misread_confidence)
               for j in range(len(idx)) if j not in kept)


def post_may_move(state: WormUpState) -> bool:
    """Whether a finish post may move now: a revealed X whose post move is not yet made."""
    rv = state.reveal
    return (rv is not None and rv.x_player is not None and not state.post_moved
            and state.phase in (Phase.BIDDING, Phase.MOVING))


def posts_kept(game: WormUp, state: WormUpState, scene: Scene, read: TableRead,
               moved_post: Point2 | None) -> Scene:
    """``scene`` with the finish posts it lacks put back where they stood (hidden or
    misread: they did not move, see :func:`changes`), so the accepted table keeps them and
    vision looks for them there next time."""
    fin = state.finish_posts_mm
    if fin is None or moved_post is not None:
        return scene
    fm = geo.match_still(fin, [c for _, c in read.posts], game.settings.post_still_mm)
    lacking = [Piece("post", round(x, 2), round(y, 2))
               for k, (x, y) in enumerate(fin) if k not in fm]
    return replace(scene, pieces=(*scene.pieces, *lacking)) if lacking else scene


def judge_move(game: WormUp, state: WormUpState, read: TableRead, player: str,
               still: Mapping[int, int]) -> tuple[Worm, list[int], int]:
    """Checks one worm's move; returns the new worm, the new segments' indices, the count.

    Raises:
        RuleBroken: shape, tail, steps, turn or touch.
    """
    assert state.reveal is not None
    old = state.worm(player).centres_mm
    new_pts = read.centres(player)
    idx = read.indices(player)
    n = len(old)
    d, gap = game.diameter_mm, chain_gap(game, read, player)

    def laid(gap_mm: float) -> dict[int, tuple[int, ...]]:
        """Per count moved, the new segments laid one after the other in front of the head."""
        found: dict[int, tuple[int, ...]] = {}
        for k in range(1, n + 1):
            if not all(i in still for i in range(k, n)):
                continue
            kept = {still[i] for i in range(k, n)}
            rest = [j for j in range(len(new_pts)) if j not in kept]
            ext = geo.extend_chain(old[k:] if k < n else old, [new_pts[j] for j in rest], d,
                                   gap_mm, lifted_from=old)
            if ext is not None:
                found[k] = tuple(rest[e] for e in ext)
        return found

    candidates = laid(gap)
    moved_idx = [idx[j] for j in range(len(new_pts)) if j not in set(still.values())]
    where = centroid([new_pts[j] for j in range(len(new_pts))
                      if j not in set(still.values())])
    if not candidates and laid(gap + game.settings.misread_mm):
        # a chain apart by no more than a reading may be off: not a confident reading
        raise foul(Rule.SHAPE, f"{player}'s worm looks apart by a few millimetres.", player,
                   moved_idx, where, doubt="are its segments touching, or is one misread?")
    if not candidates:
        if geo.best_chain(new_pts, d, gap) is None:
            apart = lone_misread(game, read, player)
            if apart is not None:
                raise foul(Rule.SHAPE, f"A segment of {player}'s worm at {pt(apart)} lies "
                                       f"apart from the rest.", player, moved_idx, pt(apart),
                           doubt=MISREAD)
            # illegal only on a confident reading: a segment read unsurely (or put back from
            # the last table, not read) may be where the chain's missing link lies
            raise foul(Rule.SHAPE, f"{player}'s worm is split: its segments no longer form "
                                   f"one chain of touching segments.", player, moved_idx,
                       where, doubt=MISREAD if read_unsurely(game, read, player) else "")
        raise foul(Rule.TAIL, f"{player} must take segments from the tail and lay them one "
                              f"after the other in front of the head.", player, moved_idx,
                   where)
    rv = state.reveal
    allowed = rv.numbers_allowed(player, state.moved)
    fits = [k for k in sorted(candidates) if k in allowed]
    k = fits[0] if fits else min(candidates)
    ext = candidates[k]
    check_no_touch(game, read, player, list(ext), Rule.TOUCH)
    if not fits:
        wrong_count(state, player, k, moved_idx, where)
    chain = (*(old[k:] if k < n else ()), *(new_pts[j] for j in ext))
    return Worm(player, tuple(chain)), [idx[j] for j in ext], k


def lone_misread(game: WormUp, read: TableRead, player: str) -> Point2 | None:
    """The one segment of ``player`` whose leaving out makes the rest one chain, when vision
    was unsure of it (``misread_confidence``): a segment misplaced by the reading. None
    otherwise."""
    pts = read.centres(player)
    idx = read.indices(player)
    d, gap = game.diameter_mm, game.settings.chain_gap_mm
    lone = [k for k in range(len(pts))
            if geo.best_chain(pts[:k] + pts[k + 1:], d, gap) is not None]
    if len(lone) != 1:
        return None
    sure = read.confidence.get(idx[lone[0]])
    return pts[lone[0]] if sure is not None and sure < game.settings.misread_confidence else None


def wrong_count(state: WormUpState, player: str, k: int, moved_idx: list[int],
                where: Point2 | None) -> None:
    """Raises the foul for a worm that moved ``k`` segments, a count it may not move now."""
    rv = state.reveal
    assert rv is not None
    mover = rv.mover(player)
    assert mover is not None
    allowed = rv.numbers_allowed(player, state.moved)
    segments = f"segment{'s' if k != 1 else ''}"
    if allowed and k < min(allowed):
        goal = or_list(allowed)
        raise foul(Rule.STEPS, f"{player} has moved {k} of {goal} segments so far.", player,
                   moved_idx, where)
    if mover.number is not None:
        bid = f"X as {mover.number}" if mover.is_x else mover.bid
        raise foul(Rule.STEPS, f"{player} bid {bid} but moved {k} {segments}.", player,
                   moved_idx, where)
    if k in mover.free:
        first = [o for o in rv.order if o.player not in state.moved
                 and o.number is not None and o.number < k]
        raise foul(Rule.ORDER, f"{player}'s X took {k}, so {first[0].label()} moves first.",
                   player, moved_idx, where)
    raise foul(Rule.STEPS, f"{player} bid X and moved {k} {segments}, but {k} was bid this "
                           f"round; the free numbers are "
                           f"{and_list(str(f) for f in mover.free)}.",
               player, moved_idx, where)


def post_move(game: WormUp, state: WormUpState, read: TableRead, moved_to: Point2) -> WormUpState:
    """Checks a finish post move; returns the state with the finish line moved."""
    s = game.settings
    rv = state.reveal
    post_idx = [i for i, _ in read.posts]
    x = rv.x_player if rv is not None else None
    if x is None or state.phase is Phase.SETUP:
        raise foul(Rule.POST, "A finish post moved, but only a successful X lets a player "
                              "move one.", None, post_idx, pt(moved_to))
    if state.post_moved:
        raise foul(Rule.POST, f"{x} has already moved a finish post for this X.", x,
                   post_idx, pt(moved_to))
    assert state.finish_posts_mm is not None
    a, b = state.finish_posts_mm
    new_posts = [c for _, c in read.posts]
    fm = geo.match_still((a, b), new_posts, s.post_still_mm)
    kept_old = next(iter(fm))
    anchor = (a, b)[kept_old]
    length = geo.dist(a, b)
    new_len = geo.dist(anchor, moved_to)
    if abs(new_len - length) > s.post_distance_tolerance_mm:
        unsure = any(read.unsure(i, s.misread_confidence) for i, c in read.posts
                     if c == moved_to)
        raise foul(Rule.POST, f"The finish posts are now {new_len:.0f} mm apart instead of "
                              f"{length:.0f} mm; the strip must stay attached.", x,
                   post_idx, pt(moved_to), doubt="is the post misread?" if unsure else "")
    posts = (anchor, moved_to) if kept_old == 0 else (moved_to, anchor)
    return replace(state, finish_posts_mm=posts, post_moved=True)


def head_on_line(game: WormUp, state: WormUpState, first: str) -> str | None:
    """The worm whose head the finish line touches (``first`` preferred), or None."""
    if state.finish_posts_mm is None:
        return None
    heads = [w.player for w in state.worms if touches_finish(game, state, w.head_mm)]
    if not heads:
        return None
    return first if first in heads else heads[0]


def touches_finish(game: WormUp, state: WormUpState, centre: Point2) -> bool:
    """Whether a segment centred at ``centre`` touches the finish line (the strip's width
    counted)."""
    assert state.finish_posts_mm is not None
    zone = geo.finish_zone(*state.finish_posts_mm, game.settings.strip_width_mm,
                           game.pieces.post_diameter_mm)
    return geo.touches_zone(zone, centre, game.radius_mm)


def finisher(game: WormUp, state: WormUpState, player: str,
             laid: Sequence[Point2]) -> str | None:
    """``player`` when a segment laid as the head touched the finish line."""
    if state.finish_posts_mm is not None and any(touches_finish(game, state, c)
                                                 for c in laid):
        return player
    return None
