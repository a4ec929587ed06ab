"""The rules of a Worm Up! setup: the worms straight, just behind the start line, between the
start posts and pointing at it; the finish posts well ahead."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from referee.worm_up import geometry as geo
from referee.worm_up.bidding import Rack
from referee.worm_up.rules import MISREAD, Rule, foul
from referee.worm_up.state import Worm, WormUpState
from referee.worm_up.table import TableRead, chain_of, check_counts, check_no_touch, pt, read_table
from tabletop.scene import Point2, Scene

if TYPE_CHECKING:
    from referee.worm_up.game import WormUp


def read_setup(game: WormUp, scene: Scene, strict: bool) -> WormUpState:
    """The starting state from the first scene (``strict``: check the setup rules)."""
    read = read_table(game, scene)
    check_counts(game, read, Rule.SETUP)
    if len(read.posts) != 4:
        raise foul(Rule.SETUP, f"The table needs 4 posts (2 start, 2 finish), not "
                               f"{len(read.posts)}.", None, [i for i, _ in read.posts],
                   doubt=MISREAD)
    chains = {p: chain_of(game, read, p, Rule.SETUP) for p in game.players}
    ends = [read.centres(p)[k] for p in game.players for k in (chains[p][0], chains[p][-1])]
    s1, s2, f1, f2 = start_and_finish([c for _, c in read.posts], ends)
    worms = []
    for p in game.players:
        pts = [read.centres(p)[k] for k in chains[p]]
        if abs(geo.line_distance(pts[-1], s1, s2)[0]) > abs(
                geo.line_distance(pts[0], s1, s2)[0]):
            pts.reverse()
        worms.append(Worm(p, tuple(pts)))
    if strict:
        check_start(game, read, worms, (s1, s2), (f1, f2))
    return WormUpState(table=scene, rack=Rack.fresh(game.players), worms=tuple(worms),
                       start_posts_mm=(s1, s2), finish_posts_mm=(f1, f2))


def start_and_finish(posts: Sequence[Point2],
                     ends: Sequence[Point2]) -> tuple[Point2, Point2, Point2, Point2]:
    """Splits 4 posts into the start pair (the line nearest the worms' ends) and the finish.

    Returns:
        ``(start_a, start_b, finish_a, finish_b)``.
    """
    best: tuple[float, tuple[int, int]] | None = None
    for i in range(4):
        for j in range(i + 1, 4):
            a, b = posts[i], posts[j]
            # each worm's nearer end to the start line
            score = sum(min(geo.segment_distance(e, a, b), geo.segment_distance(f, a, b))
                        for e, f in zip(ends[::2], ends[1::2], strict=True))
            if best is None or score < best[0]:
                best = (score, (i, j))
    assert best is not None
    i, j = best[1]
    fi, fj = (k for k in range(4) if k not in (i, j))
    return posts[i], posts[j], posts[fi], posts[fj]


def check_start(game: WormUp, read: TableRead, worms: Sequence[Worm], start: tuple[Point2, Point2],
                finish: tuple[Point2, Point2]) -> None:
    s = game.settings
    s1, s2 = start
    finish_mid = ((finish[0][0] + finish[1][0]) / 2, (finish[0][1] + finish[1][1]) / 2)
    finish_side = geo.line_distance(finish_mid, s1, s2)[0]
    if abs(finish_side) < game.diameter_mm:
        raise foul(Rule.SETUP, "The finish posts must stand well ahead of the start posts.",
                   None, [i for i, _ in read.posts])
    behind = -1.0 if finish_side > 0 else 1.0  # distances times this: > 0 behind the line
    span_mm = geo.dist(s1, s2)
    for w in worms:
        idx = read.indices(w.player)
        if geo.max_deviation(w.centres_mm) > s.straight_mm:
            raise foul(Rule.SETUP, f"{w.player}'s worm is not laid out in a straight line.",
                       w.player, idx)
        head_d, t = geo.line_distance(w.head_mm, s1, s2)
        head_behind = head_d * behind
        tail_behind = geo.line_distance(w.tail_mm, s1, s2)[0] * behind
        if tail_behind <= 0:
            raise foul(Rule.SETUP, f"{w.player}'s worm must start behind the start line, "
                                   f"facing the finish.", w.player, idx, pt(w.head_mm))
        if tail_behind - head_behind < 0.5 * geo.dist(w.tail_mm, w.head_mm):
            raise foul(Rule.SETUP, f"{w.player}'s worm must point at the start line, not "
                                   f"lie along it.", w.player, idx, pt(w.head_mm))
        gap = head_behind - game.radius_mm
        if gap < -s.touch_gap_mm:
            raise foul(Rule.SETUP, f"{w.player}'s head lies over the start line.",
                       w.player, idx, pt(w.head_mm))
        if gap > s.start_gap_mm:
            raise foul(Rule.SETUP, f"{w.player}'s head is {gap:.0f} mm behind the start "
                                   f"line; it must be just behind it.", w.player, idx,
                       pt(w.head_mm))
        margin = game.diameter_mm / span_mm if span_mm > 0 else 0.0
        if not -margin <= t <= 1 + margin:
            raise foul(Rule.SETUP, f"{w.player}'s head is not between the start posts.",
                       w.player, idx, pt(w.head_mm))
    for p in game.players:
        check_no_touch(game, read, p, None, Rule.SETUP)
