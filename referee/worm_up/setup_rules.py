"""The rules of a Worm Up! setup: the worms straight, just behind the start line, between the
start posts and pointing at it; the finish posts well ahead."""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from referee.base import Judgement, RuleBroken
from referee.worm_up import geometry as geo
from referee.worm_up.bidding import Rack
from referee.worm_up.post_layout import ALL_POSTS, Layout, choose_layout, missing_post
from referee.worm_up.post_misread import PostDoubt, post_misread, posts_sure
from referee.worm_up.rules import MISREAD, Rule, foul
from referee.worm_up.state import Worm, WormUpState
from referee.worm_up.table import TableRead, chain_of, check_counts, check_no_touch, pt, read_table
from tabletop.events import Doubt
from tabletop.scene import Point2, Scene

if TYPE_CHECKING:
    from referee.worm_up.game import WormUp


POSTS_UNSURE = ("are the posts misread? They were read unsurely, and no one post read off or "
                "taken for a shadow explains it. Fix the reading or accept the table")
"""The question put to the table when posts read unsurely break the start rules."""


def read_setup(game: WormUp, scene: Scene, strict: bool) -> WormUpState:
    """The starting state from the first scene (``strict``: check the setup rules)."""
    return first_table(game, scene, strict)[0]


def first_table(game: WormUp, scene: Scene, strict: bool, read_twice: bool = False
                ) -> tuple[WormUpState, Layout, PostDoubt | None]:
    """The starting state from the first scene, the posts taken as start and finish posts
    and the post misread they were taken under, if any (``strict``: check the setup rules;
    ``read_twice``: the table was read alike just before).

    With 4 posts read, the start pair is the one nearest the worms' ends; when the worms
    break the start rules under it but a post misread would explain it
    (:func:`referee.worm_up.post_misread.post_misread`) and the reading is not sure
    (:func:`referee.worm_up.post_misread.posts_sure`), the layout the misread explains is
    taken when its start line stands or the post left out lies more than two segments from
    where the post not seen would stand (a shadow, not a post read off; the post is doubted
    beside the verdict), else the setup is a doubt. With 3, or more
    than 4, the posts that fit a start and finish layout under which the worms are set up by
    the rules are taken (:func:`referee.worm_up.post_layout.choose_layout`): a post not seen or
    a phantom one does not stop the race. A worm not straight, or touching another, breaks
    the rules whatever the posts read.

    Raises:
        RuleBroken: a setup rule broken on a complete, confident reading (``setup``); a doubt
            when a worm is not read whole, a post may be misread, or the posts read fit no
            layout.
    """
    read = read_table(game, scene)
    check_counts(game, read, Rule.SETUP)
    chains = {p: tuple(read.centres(p)[k] for k in chain_of(game, read, p, Rule.SETUP))
              for p in game.players}
    if strict:
        check_worms(game, read, chains)
    layout, misread = layout_of(game, read, chains, strict, read_twice)
    worms = tuple(Worm(p, layout.heads_first(chains[p])) for p in game.players)
    return WormUpState(table=scene, rack=Rack.fresh(game.players), worms=worms,
                       start_posts_mm=layout.start, finish_posts_mm=layout.finish,
                       finish_once=finish_guessed(layout)), layout, \
        misread


def check_worms(game: WormUp, read: TableRead, chains: Mapping[str, Sequence[Point2]]) -> None:
    """The start rules that need no post: each worm straight, no two worms touching.

    Raises:
        RuleBroken: the first broken (``setup``).
    """
    for p in game.players:
        if geo.max_deviation(chains[p]) > game.settings.straight_mm:
            raise foul(Rule.SETUP, f"{p}'s worm is not laid out in a straight line.", p,
                       read.indices(p))
    for p in game.players:
        check_no_touch(game, read, p, None, Rule.SETUP)


def layout_of(game: WormUp, read: TableRead, chains: Mapping[str, Sequence[Point2]],
              strict: bool, read_twice: bool = False) -> tuple[Layout, PostDoubt | None]:
    """The posts read taken as start and finish posts (see :func:`first_table`), and the post
    misread they are taken under: 4 posts under which the worms break the start rules, when a
    post misread explains it and the reading is not sure, are taken as it explains.

    Raises:
        RuleBroken: with 4 posts (``strict``), the first start rule broken (a doubt when a
            post misread explains it, the reading is not sure and the start line does not
            stand); otherwise a doubt when the posts fit no layout.
    """
    posts = read.posts

    def problem(layout: Layout) -> Judgement | None:
        return start_problem(game, read, chains, layout)

    if len(posts) == ALL_POSTS:
        ends = [e for p in game.players for e in (chains[p][0], chains[p][-1])]
        s1, s2, f1, f2 = start_and_finish([c for _, c in posts], ends)
        layout = Layout((s1, s2), (f1, f2), tuple(i for i, _ in posts))
        found = problem(layout)
        if found is None:
            return layout, None
        s = game.settings
        misread = None if posts_sure(posts, read.confidence, read_twice,
                                     s.misread_confidence) else \
            post_misread(posts, layout, problem, s.misread_mm)
        if misread is None:
            if strict and any(read.unsure(i, s.misread_confidence) for i, _ in posts):
                # a post read unsurely (a shadow?), more than one post misread: not a
                # confident reading, so no foul (issue 13); the posts are in doubt
                raise foul(found.rule, found.reason, found.player,
                           tuple(dict.fromkeys((*found.pieces, *(i for i, _ in posts)))),
                           found.where, doubt=POSTS_UNSURE)
            if strict:
                raise RuleBroken(found)
            return layout, None
        if not strict or misread.start_stands or misread.shadow_apart(2 * game.diameter_mm):
            # the start line stands, or the post left out lies far from where the post not
            # seen would stand (the others taken as a start and a finish line alike)
            return misread.layout, misread
        raise foul(found.rule, found.reason, found.player,
                   tuple(dict.fromkeys((*found.pieces, misread.index))), misread.read_mm,
                   doubt=misread.question(s.misread_mm))
    chosen = choose_layout(posts, problem)
    if chosen is None:
        raise foul(Rule.SETUP, f"The table needs 4 posts (2 start, 2 finish), not "
                               f"{len(posts)}.", None, [i for i, _ in posts], doubt=MISREAD)
    return chosen, None


def start_problem(game: WormUp, read: TableRead, chains: Mapping[str, Sequence[Point2]],
                  layout: Layout) -> Judgement | None:
    """The first start rule the worms break under ``layout`` (None: set up by the rules).

    With the start line seen: :func:`check_start`'s rules (a finish post not seen: the one
    seen stands for the finish line). With only one start post seen: each worm points at
    the finish, its head well behind it, and that start post lies by the heads.
    """
    found = layout_among_phantoms(game, read, layout)
    if found is not None:
        return found
    worms = [Worm(p, layout.heads_first(chains[p])) for p in game.players]
    if layout.missing and finish_ahead(game, worms, layout.finish_seen) is None and \
            len(layout.finish_seen) == 2:
        return Judgement(Rule.SETUP, "The finish posts of a table not read whole must stand a "
                                     "worm's length ahead of the heads.")
    if layout.missing and len(layout.finish_seen) == 1 and \
            finish_ahead(game, worms, (*layout.finish_seen, *layout.finish_seen),
                         across=False) is None:
        return Judgement(Rule.SETUP, "The finish post of a table not read whole must stand a "
                                     "worm's length ahead of the heads.")
    if layout.start is not None:
        finish = layout.finish or (layout.finish_seen[0], layout.finish_seen[0])
        check = StartCheck(game, read, layout.start, finish)
        found = rule_finish_ahead(check)
        for w in worms:
            for rule in START_RULES:
                found = found or rule(check, w)
        return found
    assert layout.finish is not None and len(layout.start_seen) == 1
    post = layout.start_seen[0]
    tail_side = sum(geo.line_distance(w.tail_mm, *layout.finish)[0] for w in worms)
    side = 1.0 if tail_side > 0 else -1.0
    d = game.diameter_mm
    for w in worms:
        head = geo.line_distance(w.head_mm, *layout.finish)[0] * side
        tail = geo.line_distance(w.tail_mm, *layout.finish)[0] * side
        start = geo.line_distance(post, *layout.finish)[0] * side
        if head < d or tail - head < 0.5 * geo.dist(w.tail_mm, w.head_mm) or \
                not -d <= head - start <= game.settings.start_gap_mm + d:
            return Judgement(Rule.SETUP, f"{w.player}'s worm does not lie just behind a start "
                                         f"line in front of the finish.", w.player,
                             tuple(read.indices(w.player)))
    return None


def finish_guessed(layout: Layout) -> tuple[Point2, Point2] | None:
    """The finish line of a first table that showed the start line and one finish post: that
    post and where the other most likely stands (:func:`missing_post`), as if read once (a
    later table showing both there takes it at once)."""
    where = missing_post(layout)
    return None if where is None else (layout.finish_seen[0], where)


def layout_among_phantoms(game: WormUp, read: TableRead, layout: Layout) -> Judgement | None:
    """Why ``layout``, chosen among more posts than the table has (the rest taken for
    phantoms), cannot be taken (None: it can). Out of many readings some fit the start rules
    by chance (a black gingham under a blind: 8 posts read, none of the 4 there, two phantoms
    just ahead of the heads taken as a start line and a finish 87 mm unlike it, which a worm
    then "crossed"); so a layout chosen among phantoms takes only posts read surely (at least
    ``misread_confidence``) and, with both lines seen, a finish line that is the start line
    moved ahead (within ``post_distance_tolerance_mm``). With the 4 posts read, one read
    unsurely may be a shadow with the real post not seen: a finish line drawn through it must
    still be the start line moved ahead (204037: a shadow by yellow's head read at 0.4 with the
    finish post at (0, 420) not seen made a finish line running back to the start line, and
    yellow's first move "won" the race), else the post is in doubt
    (:func:`referee.worm_up.post_misread.post_misread`)."""
    s = game.settings
    unsure = any(read.unsure(i, s.misread_confidence) for i in layout.used)
    if len(read.posts) <= ALL_POSTS:  # (one of 4 left out is a post misread, not a phantom)
        if unsure and layout.misfit_mm > s.post_distance_tolerance_mm:
            return Judgement(Rule.SETUP, "The finish line must be the start line moved ahead.")
        return None
    if unsure:
        return Judgement(Rule.SETUP, "Posts read unsurely among more posts than the table has "
                                     "are taken for shadows.")
    if layout.misfit_mm > s.post_distance_tolerance_mm:
        return Judgement(Rule.SETUP, "The finish line must be the start line moved ahead.")
    return None


def setup_as_read(game: WormUp, scene: Scene) -> WormUpState:
    """The starting state from a first table in doubt that the players went on from (they
    bid): its worms must be read whole (else :class:`RuleBroken`, a doubt still); posts not
    all seen are no reason to stop the race. With the 4 posts, as :func:`read_setup` (the
    start rules not asked again); otherwise no start line, each worm's head the end nearer
    the posts seen (none seen: the worms all one way, ``heads_unknown`` until the first
    move), and the finish posts the two seen well ahead of the heads (or, when they are not,
    the first two a later table shows there: :func:`finish_ahead`). With the 4 posts taken
    as a start and a finish line that cross (:func:`lines_cross`: the worms read mid-race,
    not at the start), as with posts not all seen, the finish line taken from later tables.

    Raises:
        RuleBroken: a worm not read whole.
    """
    read = read_table(game, scene)
    crossed = False
    if len(read.posts) >= ALL_POSTS - 1:
        try:
            stood = read_setup(game, scene, strict=False)
        except RuleBroken:
            if len(read.posts) == ALL_POSTS:
                raise
        else:
            if stood.start_posts_mm is None or stood.finish_posts_mm is None or \
                    not lines_cross(*stood.start_posts_mm, *stood.finish_posts_mm):
                return toward_finish(stood)
            crossed = True  # 153234: worms read mid-race, the lines taken corner to corner
    check_counts(game, read, Rule.SETUP)
    chains = {p: chain_of(game, read, p, Rule.SETUP) for p in game.players}
    posts = [c for _, c in read.posts]
    worms = []
    if posts:
        mid = (sum(p[0] for p in posts) / len(posts), sum(p[1] for p in posts) / len(posts))
    else:  # no post seen: the worms point one way, which the first move tells
        first = [read.centres(game.players[0])[k] for k in chains[game.players[0]]]
        ux, uy = first[-1][0] - first[0][0], first[-1][1] - first[0][1]
        mid = (first[-1][0] + 1e3 * ux, first[-1][1] + 1e3 * uy)
    for p in game.players:
        pts = [read.centres(p)[k] for k in chains[p]]
        if geo.dist(pts[0], mid) < geo.dist(pts[-1], mid):
            pts.reverse()
        worms.append(Worm(p, tuple(pts)))
    # which end is the head is checked again on the first move (a phantom post may mislead)
    return WormUpState(table=scene, rack=Rack.fresh(game.players), worms=tuple(worms),
                       finish_posts_mm=None if crossed else finish_ahead(game, worms, posts),
                       heads_unknown=True)


def toward_finish(state: WormUpState) -> WormUpState:
    """``state`` with each worm's head the end nearer the finish line, when it is known. A
    worm set up by the rules lies behind the start line pointing at the finish, so its head
    is the end nearer both lines; a first table that stands as read may have been read
    mid-race, its worms between the lines, where the end nearer the start line is the tail
    (138617: the table after round 1 stood with every head taken at the start line; a worm
    placed later was then turned back to front). Worms between the lines tell neither which
    pair of posts is the start (the one nearer them was taken) nor which way they race: a
    worm turned makes ``heads_unknown`` (the first move tells).

    >>> from referee.worm_up.bidding import Rack
    >>> w = Worm("red", ((0.0, 20.0), (0.0, 100.0)))
    >>> s = WormUpState(table=None, rack=Rack.fresh(("red",)), worms=(w,),
    ...                 finish_posts_mm=((-50.0, 400.0), (50.0, 400.0)))
    >>> toward_finish(s).worm("red").head_mm, toward_finish(s).heads_unknown
    ((0.0, 100.0), False)
    >>> turned = toward_finish(replace(s, worms=(Worm("red", w.centres_mm[::-1]),)))
    >>> turned.worm("red").head_mm, turned.heads_unknown
    ((0.0, 100.0), True)
    """
    if state.finish_posts_mm is None:
        return state
    (ax, ay), (bx, by) = state.finish_posts_mm

    def off(p: Point2) -> float:  # distance from the finish line (times its length)
        return abs((bx - ax) * (p[1] - ay) - (by - ay) * (p[0] - ax))

    if all(off(w.head_mm) <= off(w.tail_mm) for w in state.worms):
        return state
    return replace(state, heads_unknown=True, worms=tuple(
        w if off(w.head_mm) <= off(w.tail_mm) else Worm(w.player, w.centres_mm[::-1])
        for w in state.worms))


def lines_cross(a: Point2, b: Point2, c: Point2, d: Point2) -> bool:
    """Whether the line from ``a`` to ``b`` crosses the one from ``c`` to ``d`` (a start
    and a finish line never do).

    >>> lines_cross((0, 0), (300, 420), (300, 0), (0, 420))
    True
    >>> lines_cross((0, 0), (300, 0), (0, 420), (300, 420))
    False
    """
    def side(p: Point2, q: Point2, r: Point2) -> float:
        return (q[0] - p[0]) * (r[1] - p[1]) - (q[1] - p[1]) * (r[0] - p[0])

    return side(a, b, c) * side(a, b, d) < 0 and side(c, d, a) * side(c, d, b) < 0


def set_up_in_line(game: WormUp, state: WormUpState) -> bool:
    """Whether the worms of a first table read without its start line (fewer than 3 posts
    seen) lie as a start does: all pointing one way, their heads (or, while which end is the
    head is not known, their tails) side by side within ``start_gap_mm`` along that way."""
    worms = state.worms
    way = mean_heading(worms)
    if way is None:
        return False
    ux, uy = way
    for w in worms:
        length = geo.dist(w.head_mm, w.tail_mm)
        if length <= 0 or ((w.head_mm[0] - w.tail_mm[0]) * ux
                           + (w.head_mm[1] - w.tail_mm[1]) * uy) < 0.9 * length:
            return False
    gap = game.settings.start_gap_mm
    heads = [w.head_mm[0] * ux + w.head_mm[1] * uy for w in worms]
    tails = [w.tail_mm[0] * ux + w.tail_mm[1] * uy for w in worms]
    return max(heads) - min(heads) <= gap or (
        state.heads_unknown and max(tails) - min(tails) <= gap)


def post_misread_told(game: WormUp, misread: PostDoubt, seq: int) -> Doubt:
    """The doubt told beside the verdict when the first table was judged under a post
    misread (:func:`first_table`)."""
    return Doubt(seq, None, (misread.index,), misread.read_mm,
                 f"The posts as read break the start rules: "
                 f"{misread.question(game.settings.misread_mm, going_on=True)}.")


def posts_not_seen(layout: Layout, seq: int) -> tuple[Doubt, ...]:
    """The doubt told once when the first table was judged with a post not seen (none when
    all 4 were)."""
    if not layout.missing:
        return ()
    which = "a start post" if layout.start is None else "a finish post"
    line = "start" if layout.start is None else "finish"
    where = missing_post(layout)
    near = f" (near {where[0]:.0f}, {where[1]:.0f})" if where is not None else ""
    return (Doubt(seq, None, layout.used, where,
                  f"{ALL_POSTS - layout.missing} of the {ALL_POSTS} posts are seen: "
                  f"{which}{near} is not seen: is it hidden or misread? The race goes on; "
                  f"the {line} line is taken where both its posts are seen."),)


def mean_heading(worms: Sequence[Worm]) -> tuple[float, float] | None:
    """The unit vector of the worms' summed tail-to-head directions; None without worms or
    when they cancel out."""
    hx = sum(w.head_mm[0] - w.tail_mm[0] for w in worms)
    hy = sum(w.head_mm[1] - w.tail_mm[1] for w in worms)
    norm = math.hypot(hx, hy)
    return None if norm < 1e-6 else (hx / norm, hy / norm)


def heads_spread_mm(worms: Sequence[Worm]) -> float:
    """How far apart the worms' heads lie along their mean heading (0: level)."""
    way = mean_heading(worms)
    if way is None:
        return math.inf
    along = [w.head_mm[0] * way[0] + w.head_mm[1] * way[1] for w in worms]
    return max(along) - min(along)


def race_mm(game: WormUp) -> float:
    """How far ahead of the heads a finish line told from an incomplete reading must lie: a
    worm's length (a line nearer would end the race in a first move; posts read there by a
    doubtful reading are taken for shadows, not a finish)."""
    return game.settings.segments * game.diameter_mm


def finish_ahead(game: WormUp, worms: Sequence[Worm], posts: Sequence[Point2],
                 across: bool = True) -> tuple[Point2, Point2] | None:
    """The finish posts among ``posts``: the two lying well ahead of every worm's head (more
    than a worm's length beyond the farthest head, :func:`race_mm`, along the worms' mean
    heading) and, ``across``, either side of every worm's way (:func:`spans_worms`); None
    unless exactly two do."""
    way = mean_heading(worms)
    if way is None:
        return None
    ux, uy = way
    reach = max(w.head_mm[0] * ux + w.head_mm[1] * uy for w in worms) + race_mm(game)
    ahead = [p for p in posts if p[0] * ux + p[1] * uy > reach]
    if len(ahead) != 2 or (across and not spans_worms(game, worms, way, ahead[0], ahead[1])):
        return None
    return (pt(ahead[0]), pt(ahead[1]))


def spans_worms(game: WormUp, worms: Sequence[Worm], way: tuple[float, float],
                a: Point2, b: Point2) -> bool:
    """Whether the line from post ``a`` to post ``b`` could be the finish: every worm's head
    lies between the two posts sideways to the worms' mean heading ``way`` (the worms start
    between the start posts and the finish strip is the start line moved ahead), give or take
    ``start_gap_mm`` and a segment for worms that wander as they go."""
    vx, vy = -way[1], way[0]
    side = sorted((a[0] * vx + a[1] * vy, b[0] * vx + b[1] * vy))
    heads = [w.head_mm[0] * vx + w.head_mm[1] * vy for w in worms]
    slack = game.settings.start_gap_mm + game.diameter_mm
    return side[0] - slack <= min(heads) and max(heads) <= side[1] + slack


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


@dataclass(frozen=True)
class StartCheck:
    """The first table as the start rules see it: the start line, and which side is behind.

    Attributes:
        game: The game (settings, segment size).
        read: The table read.
        start: The start posts.
        finish: The finish posts.
    """

    game: WormUp
    read: TableRead
    start: tuple[Point2, Point2]
    finish: tuple[Point2, Point2]

    @property
    def finish_side_mm(self) -> float:
        """The finish line's middle from the start line (signed)."""
        f = self.finish
        finish_mid = ((f[0][0] + f[1][0]) / 2, (f[0][1] + f[1][1]) / 2)
        return geo.line_distance(finish_mid, *self.start)[0]

    def behind_mm(self, p: Point2) -> float:
        """How far ``p`` lies behind the start line (negative: over it)."""
        behind = -1.0 if self.finish_side_mm > 0 else 1.0
        return geo.line_distance(p, *self.start)[0] * behind

    def problem(self, w: Worm, reason: str, where: bool = True) -> Judgement:
        """A ``setup`` judgement about worm ``w`` (at its head when ``where``)."""
        return Judgement(Rule.SETUP, reason, w.player, tuple(self.read.indices(w.player)),
                         pt(w.head_mm) if where else None)


StartRule = Callable[[StartCheck, Worm], Judgement | None]


def rule_finish_ahead(check: StartCheck) -> Judgement | None:
    """The finish posts stand well ahead of the start posts."""
    if abs(check.finish_side_mm) < check.game.diameter_mm:
        return Judgement(Rule.SETUP, "The finish posts must stand well ahead of the start "
                                     "posts.", None, tuple(i for i, _ in check.read.posts))
    return None


def rule_worm_straight(check: StartCheck, w: Worm) -> Judgement | None:
    """A worm is laid out in a straight line."""
    if geo.max_deviation(w.centres_mm) > check.game.settings.straight_mm:
        return check.problem(w, f"{w.player}'s worm is not laid out in a straight line.", False)
    return None


def rule_worm_behind_start(check: StartCheck, w: Worm) -> Judgement | None:
    """A worm's tail lies behind the start line."""
    if check.behind_mm(w.tail_mm) <= 0:
        return check.problem(w, f"{w.player}'s worm must start behind the start line, facing "
                                f"the finish.")
    return None


def rule_worm_points_at_start(check: StartCheck, w: Worm) -> Judgement | None:
    """A worm points at the start line rather than lying along it."""
    along = check.behind_mm(w.tail_mm) - check.behind_mm(w.head_mm)
    if along < 0.5 * geo.dist(w.tail_mm, w.head_mm):
        return check.problem(w, f"{w.player}'s worm must point at the start line, not lie "
                                f"along it.")
    return None


def rule_head_not_over_line(check: StartCheck, w: Worm) -> Judgement | None:
    """A worm's head does not lie over the start line."""
    gap = check.behind_mm(w.head_mm) - check.game.radius_mm
    if gap < -check.game.settings.touch_gap_mm:
        return check.problem(w, f"{w.player}'s head lies over the start line.")
    return None


def rule_head_just_behind(check: StartCheck, w: Worm) -> Judgement | None:
    """A worm's head lies just behind the start line (within ``start_gap_mm``)."""
    gap = check.behind_mm(w.head_mm) - check.game.radius_mm
    if gap > check.game.settings.start_gap_mm:
        return check.problem(w, f"{w.player}'s head is {gap:.0f} mm behind the start line; it "
                                f"must be just behind it.")
    return None


def rule_head_between_posts(check: StartCheck, w: Worm) -> Judgement | None:
    """A worm's head lies between the start posts (a segment's width of slack)."""
    span_mm = geo.dist(*check.start)
    t = geo.line_distance(w.head_mm, *check.start)[1]
    margin = check.game.diameter_mm / span_mm if span_mm > 0 else 0.0
    if not -margin <= t <= 1 + margin:
        return check.problem(w, f"{w.player}'s head is not between the start posts.")
    return None


START_RULES: tuple[StartRule, ...] = (
    rule_worm_straight, rule_worm_behind_start, rule_worm_points_at_start,
    rule_head_not_over_line, rule_head_just_behind, rule_head_between_posts)
"""The rules of each worm's start, in the order they are asked (code ``setup``)."""


def check_start(game: WormUp, read: TableRead, worms: Sequence[Worm], start: tuple[Point2, Point2],
                finish: tuple[Point2, Point2]) -> None:
    """The setup rules: the finish ahead, then each worm's :data:`START_RULES`, then no two
    worms touching.

    Raises:
        RuleBroken: the first rule broken (code ``setup``).
    """
    check = StartCheck(game, read, start, finish)
    found = rule_finish_ahead(check)
    if found is not None:
        raise RuleBroken(found)
    for w in worms:
        for rule in START_RULES:
            found = rule(check, w)
            if found is not None:
                raise RuleBroken(found)
    for p in game.players:
        check_no_touch(game, read, p, None, Rule.SETUP)
