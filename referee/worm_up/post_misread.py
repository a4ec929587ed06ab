"""A first table read with its 4 posts that breaks the start rules: is a post misread?

A camera misses a post and reads a shadow as one (still 4 posts), or reads a tall post a few
millimetres off. Either may make a start set up by the rules look illegal: a start line drawn
through a shadow, a line moved so a head lies over it. A false alarm is the worst call a referee
makes (issue 13), so before a ``setup`` foul on 4 posts read by vision the layouts such a misread
allows are tried (:func:`post_misread`): each post moved ``shift_mm`` in one of eight directions
(read a few mm off), then each post taken as a phantom with the real one not seen (the 3 others
as a layout of 3 posts, :func:`referee.worm_up.post_layout.choose_layout`). When one of them
sets the worms up by the rules, the post is in doubt, named with its place, not the setup.

A ``setup`` foul needs a complete, confident reading (:func:`posts_sure`): posts typed or fixed
by hand (no confidence from vision), or read twice alike, every post confidently.

>>> from referee.worm_up.post_layout import Layout
>>> posts = [(0, (0.0, 0.0)), (1, (300.0, 0.0)), (2, (0.0, 420.0)), (3, (300.0, 420.0))]
>>> four = Layout(((0.0, 0.0), (300.0, 0.0)), ((0.0, 420.0), (300.0, 420.0)), (0, 1, 2, 3))
>>> def problem(layout):  # the start line must run through y = -6 at x = 300
...     return None if layout.start and layout.start[1] == (300.0, -6.0) else "broken"
>>> found = post_misread(posts, four, problem, 6.0)
>>> found.index, found.read_mm, found.shifted
(1, (300.0, 0.0), True)
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass

from referee.worm_up import geometry as geo
from referee.worm_up.post_layout import (
    Layout,
    StartProblem,
    choose_layout,
    missing_post,
    partner_post,
)
from tabletop.scene import Point2

DIRECTIONS = 8
"""How many directions a post read a few mm off is tried in."""


@dataclass(frozen=True)
class PostDoubt:
    """A post whose misreading explains a start that breaks the rules as read.

    Attributes:
        layout: The start and finish posts under which the worms are set up by the rules.
        index: The scene index of the post in doubt.
        read_mm: Where it was read.
        shifted: True: read a few mm off; False: not a post at all (the real one not seen).
        line: Which line it was taken for: ``"start"`` or ``"finish"``.
    """

    layout: Layout
    index: int
    read_mm: Point2
    shifted: bool
    line: str

    @property
    def start_stands(self) -> bool:
        """Whether the layout the misread explains keeps the start line seen (a post read a
        few mm off, or a finish post that is none): the start rules are asked in full under
        it, so the setup is judged (a start post that is none leaves only the loose rules of
        one start post: the setup stays in doubt)."""
        return self.layout.start is not None

    def shadow_apart(self, apart_mm: float) -> bool:
        """Whether the post taken as a shadow lies more than ``apart_mm`` from where the post
        not seen most likely stands (then it is no real post read off: a shadow)."""
        where = None if self.shifted else not_seen(self.layout)
        return where is not None and geo.dist(where, self.read_mm) > apart_mm

    def question(self, shift_mm: float, going_on: bool = False) -> str:
        """What the table is asked about the post (the place named); ``going_on``: the race
        goes on as the misread explains."""
        x, y = round(self.read_mm[0]), round(self.read_mm[1])  # never "-0"
        after = "The race goes on as if it is; fix the reading if not" if going_on else \
            "Fix the reading or accept the table"
        if self.shifted:
            return (f"is the {self.line} post at ({x}, {y}) (or a segment by it) read up "
                    f"to {shift_mm:.0f} mm off? The worms are set up by the rules if it is. "
                    f"{after}")
        where = not_seen(self.layout)
        if where is not None and geo.dist(where, self.read_mm) < shift_mm:
            return (f"is the post at ({x}, {y}) misread? The worms are set up by the rules "
                    f"under the other three. {after}")
        near = f", with a post not seen near ({where[0]:.0f}, {where[1]:.0f})" \
            if where is not None else ", with a post not seen"
        return (f"is the post read at ({x}, {y}) a misread (a shadow){near}? The "
                f"worms are set up by the rules without it. {after}")


def post_misread(posts: Sequence[tuple[int, Point2]], layout: Layout, problem: StartProblem,
                 shift_mm: float) -> PostDoubt | None:
    """The misread of one of the 4 ``posts`` (scene index, centre) taken as ``layout`` that
    sets the worms up by the rules (``problem`` None): a post read up to ``shift_mm`` off
    first (the smaller misread), then a post that is no post; None when no such misread
    does."""
    for index, centre, moved in _shifted(posts, layout, shift_mm):
        if problem(moved) is None:
            return PostDoubt(moved, index, centre, True, _line(layout, centre))
    best: tuple[tuple[int, float], PostDoubt] | None = None
    for k, (index, centre) in enumerate(posts):
        others = [p for j, p in enumerate(posts) if j != k]
        chosen = choose_layout(others, problem)
        if chosen is None:
            continue
        rank = (0 if chosen.start is not None else 1, chosen.misfit_mm)
        if best is None or rank < best[0]:
            best = (rank, PostDoubt(chosen, index, centre, False, _line(layout, centre)))
    return None if best is None else best[1]


def not_seen(layout: Layout) -> Point2 | None:
    """Where the post a layout of 3 posts lacks most likely stands: its line drawn as the
    other line moved (None unless one line was seen whole)."""
    if layout.start is not None:
        return missing_post(layout)
    if layout.finish is None or len(layout.start_seen) != 1:
        return None
    return partner_post(layout.finish, layout.start_seen[0])


def posts_sure(posts: Sequence[tuple[int, Point2]], confidence: Mapping[int, float],
               read_twice: bool, sure_above: float) -> bool:
    """Whether the posts read are a complete, confident reading: all typed or fixed by hand
    (vision gave no ``confidence``), or ``read_twice`` alike with every post's confidence at
    least ``sure_above``."""
    rated = [confidence[i] for i, _ in posts if i in confidence]
    if not rated:
        return True
    return read_twice and min(rated) >= sure_above


def _shifted(posts: Sequence[tuple[int, Point2]], layout: Layout, shift_mm: float
             ) -> Iterator[tuple[int, Point2, Layout]]:
    """``layout`` with one post moved ``shift_mm`` in each of :data:`DIRECTIONS` directions."""
    for index, centre in posts:
        for k in range(DIRECTIONS):
            a = 2 * math.pi * k / DIRECTIONS
            moved = (round(centre[0] + shift_mm * math.cos(a), 1),
                     round(centre[1] + shift_mm * math.sin(a), 1))
            yield index, centre, Layout(_swap(layout.start_seen, centre, moved),
                                        _swap(layout.finish_seen, centre, moved), layout.used)


def _swap(seen: tuple[Point2, ...], old: Point2, new: Point2) -> tuple[Point2, ...]:
    return tuple(new if p == old else p for p in seen)


def _line(layout: Layout, centre: Point2) -> str:
    return "start" if centre in layout.start_seen else "finish"
