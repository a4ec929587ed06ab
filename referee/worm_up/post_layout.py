"""The start and finish posts of a first table read imperfectly: the posts that fit a layout.

A camera may miss a post (a black post on a dark cloth) or read one that is not there (a
shadow). A first table that reads 3 posts, or more than 4, still shows a start line and a
finish line when some of its posts fit one: the start pair just in front of every worm's head
(the start rules hold), the finish posts well ahead. :func:`choose_layout` tries every way of
taking the posts read as the start and finish posts and keeps one under which the worms are set
up by the rules; the posts left out are phantoms, the ones not seen are told as a doubt (never
a foul: a foul needs a complete reading, :func:`referee.worm_up.setup_rules.read_setup`).

>>> from referee.worm_up.post_layout import Layout
>>> layout = Layout(((0.0, 0.0), (300.0, 0.0)), ((0.0, 420.0),), (0, 1, 2))
>>> layout.missing, layout.finish, missing_post(layout)
(1, None, (300.0, 420.0))
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from itertools import combinations

from referee.base import Judgement
from referee.worm_up import geometry as geo
from tabletop.scene import Point2

ALL_POSTS = 4
"""Posts on a Worm Up! table: two start posts and two finish posts."""


@dataclass(frozen=True)
class Layout:
    """A choice of the posts read as start and finish posts.

    Attributes:
        start_seen: The start posts seen (both, or the one seen).
        finish_seen: The finish posts seen (both, or the one seen).
        used: The scene indices of the posts taken (the others read are phantoms).
    """

    start_seen: tuple[Point2, ...]
    finish_seen: tuple[Point2, ...]
    used: tuple[int, ...]

    @property
    def start(self) -> tuple[Point2, Point2] | None:
        """The start posts (None: one of them was not seen)."""
        return _pair(self.start_seen)

    @property
    def finish(self) -> tuple[Point2, Point2] | None:
        """The finish posts (None: one of them was not seen)."""
        return _pair(self.finish_seen)

    @property
    def missing(self) -> int:
        """How many of the 4 posts this layout takes as not seen."""
        return ALL_POSTS - len(self.used)

    @property
    def misfit_mm(self) -> float:
        """How far the finish line is from the start line moved ahead (0 with one of them not
        seen): the strip is as long as the start line and parallel to it."""
        if self.start is None or self.finish is None:
            return 0.0
        (s1, s2), (f1, f2) = self.start, self.finish
        sx, sy, fx, fy = s2[0] - s1[0], s2[1] - s1[1], f2[0] - f1[0], f2[1] - f1[1]
        return min(math.hypot(fx - sx, fy - sy), math.hypot(fx + sx, fy + sy))

    def heads_first(self, chain: Sequence[Point2]) -> tuple[Point2, ...]:
        """A worm's centres tail first: its head is the end nearer the start line (or, when
        the start line was not seen, nearer the finish)."""
        pts = tuple(chain)
        if self.start is not None:
            near = [abs(geo.line_distance(p, *self.start)[0]) for p in (pts[0], pts[-1])]
        else:
            assert self.finish is not None
            mid = _mid(*self.finish)
            near = [geo.dist(p, mid) for p in (pts[0], pts[-1])]
        return pts[::-1] if near[0] < near[1] else pts


StartProblem = Callable[[Layout], Judgement | None]
"""The first rule of the start a layout's worms break (None: they are set up by the rules)."""


def candidates(posts: Sequence[tuple[int, Point2]]) -> Iterator[Layout]:
    """Every layout of ``posts`` read (scene index, centre), most posts first: all 4 when 4
    are read; with more, every 4 of them, then every 3; with 3, the three. Of three posts,
    either both start posts were seen (the third a finish post) or both finish posts."""
    n = len(posts)
    if n < ALL_POSTS - 1:
        return
    sizes = [ALL_POSTS] if n == ALL_POSTS else [ALL_POSTS, ALL_POSTS - 1] \
        if n > ALL_POSTS else [ALL_POSTS - 1]
    for size in sizes:
        for subset in combinations(range(n), size):
            for pair in combinations(subset, 2):
                rest = [k for k in subset if k not in pair]
                used = tuple(posts[k][0] for k in subset)
                pair_seen = tuple(posts[k][1] for k in pair)
                rest_seen = tuple(posts[k][1] for k in rest)
                yield Layout(pair_seen, rest_seen, used)
                if size == ALL_POSTS - 1:
                    yield Layout(rest_seen, pair_seen, used)


def choose_layout(posts: Sequence[tuple[int, Point2]], problem: StartProblem) -> Layout | None:
    """The layout of ``posts`` under which the worms are set up by the rules (``problem``
    None): the one with most posts taken, then with the start line seen, then the finish line
    most like the start line moved ahead (:attr:`Layout.misfit_mm`); None when none is."""
    best: tuple[tuple[int, int, float], Layout] | None = None
    for layout in candidates(posts):
        if problem(layout) is not None:
            continue
        rank = (-len(layout.used), 0 if layout.start is not None else 1, layout.misfit_mm)
        if best is None or rank < best[0]:
            best = (rank, layout)
    return None if best is None else best[1]


def missing_post(layout: Layout) -> Point2 | None:
    """Where the finish post not seen most likely stands: the finish line drawn as the start
    line moved ahead (None unless the start posts and one finish post were seen)."""
    if layout.start is None or len(layout.finish_seen) != 1:
        return None
    return partner_post(layout.start, layout.finish_seen[0])


def partner_post(line: tuple[Point2, Point2], seen: Point2) -> Point2:
    """Where the partner of ``seen``, one post of a line whose other post is not seen, stands:
    that line drawn as ``line`` (the other line, seen whole) moved onto ``seen``."""
    (a, b) = line
    vx, vy = b[0] - a[0], b[1] - a[1]
    # the seen post answers the post of ``line`` nearer it sideways; the other lies beside it
    t = geo.line_distance(seen, a, b)[1]
    sign = 1.0 if t < 0.5 else -1.0
    return (round(seen[0] + sign * vx, 1), round(seen[1] + sign * vy, 1))


def _pair(seen: tuple[Point2, ...]) -> tuple[Point2, Point2] | None:
    return (seen[0], seen[1]) if len(seen) == 2 else None


def _mid(a: Point2, b: Point2) -> Point2:
    return ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)
