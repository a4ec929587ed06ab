"""Is the new reading of the table possible? Conservation laws before rules.

Between two accepted tables of Worm Derby some things cannot happen: tiles do not appear or
vanish, a face-down obstacle does not move (except after an ace), a worm keeps its coins (except
an end coin a Cannibal eats), a coin does not change its suit where it lies, and the pieces that
play no part in the turn stay where they were. When the camera's reading breaks such a law the
first explanation is a misread, not a foul. :func:`reconcile` makes the reading consistent with
the accepted table:

- plain misreads are put right and the reading stays *complete* (judged either way): a tile a
  coin touches or covers and that is not seen is still there, and so is a coin another coin
  lies over; a tile read face up where a
  face-down one lay (or the other way) keeps its face; a coin read without a suit, or with a
  suit that makes one worm too long and another too short, where such a coin lay keeps that
  coin's suit, and a coin of a worm lying still read where none of its coins lay is the one
  worm's a coin short (:func:`_coin_read_as_still`); a piece read a few
  millimetres off its old place (less than half a coin) stayed;
- guesses make it *incomplete*, with :class:`ReadingDoubt` values saying what looks wrong: a
  tile not seen and not covered, or a coin of a worm not on the move, is put back where it lay;
  a tile where none was, or a coin of no worm in the race, is left out; a coin missing from the
  worm on the move is tried back at each place it lay; a coin read overlapping one of its worm's
  coins with a gap on its other side is put midway between them (:mod:`.misplaced`, kept in
  :attr:`Reading.misread`: a foul must not rest on where it was put). An incomplete reading may
  only confirm a legal move; anything else on it is a doubt, which changes nothing in the game,
  unless the foul is of the mover's own coins and rests on no guess
  (:meth:`referee.worm_derby.game.WormDerby._foul_read_whole`), or a worm moved out of turn
  shown by its own coins (:mod:`referee.worm_derby.evidence`).

Pieces restored from the accepted table are appended after the reading's own pieces, so the
reading's indices (which verdicts and doubts name) stay valid.

>>> from tabletop.scene import Piece, Scene
>>> old = Scene.of([Piece.tile(0, 0, 0, "down"), Piece("coin", 40, 0, suit="suns")])
>>> new = Scene.of([Piece("coin", 40, 0, suit="suns")])
>>> r = reconcile(old, new, ReadingRules(coin_mm=19.05, tile_mm=50.8,
...               lengths={"suns": 1}, mover="suns"))
>>> r.doubts[0].reason
'the obstacle at (0, 0) is not seen: is it hidden, or did it move?'
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field, replace

from referee.misread_counts import one_over_one_short
from referee.worm_derby.misplaced import misplaced_coins
from referee.worm_derby.partial import fits_lying_still
from referee.worm_derby.settings import DEFAULT_SETTINGS
from referee.worm_derby.suit_lending import REACH_COINS, lend_suits
from referee.worm_derby.table import IGNORED_KINDS
from referee.worm_derby.words import at, possessive
from tabletop.scene import Piece, Point2, Scene

HIDDEN_UNDER = 0.85
"""A coin not seen whose place another coin covers (centres less than this share of a coin's
width apart: more than a sliver over it) lies under that coin, still there."""

FIXED_KINDS = ("tile", "post")
"""Kinds of piece that no roll of the die moves (an ace moves one obstacle tile)."""


STAYED_SHARE = 0.45
"""A piece read nearer its old place than this share of a coin's width did not move."""


@dataclass(frozen=True)
class ReadingRules:
    """What the game says about the pieces, for one reading.

    Attributes:
        coin_mm: Coin diameter.
        tile_mm: Tile side.
        lengths: Coins each worm in the race has now (finished worms left out).
        players: Every player in the race (finished ones too).
        mover: The player whose turn it is (None: nobody may move).
        obstacle_may_move: True after an ace: one face-down tile may move.
        may_lose_one: Players whose worm may lose one coin (a Cannibal may eat it).
        may_gain_one: Players whose worm may get one coin back (an eaten coin, on an ace).
        same_place_mm: Pieces nearer than this to their old place have not moved.
        partial: Players whose worm the accepted table knows only in part (unsure: its
            doubted reading stood) and who have no steps to play, with their lengths: a reading
            that shows it in part again, fitting it lying still (:mod:`.partial`), shows it
            where it lay (the coins not seen are still there).
        touch_factor: Two coins touch when their centres are at most this many coin widths
            apart.
        overlap_mm: Two coins of a worm overlap when their centres lie nearer than this (the
            step rule's limit); a coin read overlapping one neighbour and clear of the other is
            a misread put midway between them (:mod:`.misplaced`). None: not looked for.
        centre_noise_mm: A distance between two measured centres may read this much short.
    """

    coin_mm: float
    tile_mm: float
    lengths: Mapping[str, int]
    mover: str | None
    players: frozenset[str] = frozenset()
    obstacle_may_move: bool = False
    may_lose_one: frozenset[str] = frozenset()
    may_gain_one: frozenset[str] = frozenset()
    same_place_mm: float = 4.0
    partial: Mapping[str, int] = field(default_factory=dict)
    touch_factor: float = 1.2
    overlap_mm: float | None = None
    centre_noise_mm: float = DEFAULT_SETTINGS.centre_noise_mm

    @property
    def stayed_mm(self) -> float:
        """A piece read less than this from its old place did not move (a misread)."""
        return STAYED_SHARE * self.coin_mm


@dataclass(frozen=True)
class ReadingDoubt:
    """Something the reading shows that the game cannot do."""

    reason: str
    where_mm: Point2 | None
    pieces: tuple[int, ...] = ()


@dataclass(frozen=True)
class Candidate:
    """One way to read the table consistently: the scene to judge and, for each of its pieces,
    its index in the camera's reading (-1: a piece restored from the accepted table)."""

    scene: Scene
    index_map: tuple[int, ...]
    twin: Scene | None = None
    """The same reading with the guessed coin on the other side of a bend
    (:func:`one_coin_places`): a legal move is confirmed on this candidate only when it is
    legal on its twin too."""
    read_poses: tuple[tuple[int, int, Piece], ...] = ()
    """Fixed pieces that stayed and were put back at their accepted place though read a
    little off it: ``(index in the accepted table, index in the reading, the piece where
    this reading has it)`` (:meth:`as_read`)."""

    def as_read(self, table: Scene) -> tuple[Scene, Scene] | None:
        """The accepted ``table`` and this candidate's scene with the fixed pieces of
        :attr:`read_poses` where this reading has them (on both: they still did not move):
        the table as read in the same frame as the coins, for a step's geometry. None when
        every fixed piece was read at its accepted place."""
        if not self.read_poses:
            return None
        at_table = {k: q for k, _, q in self.read_poses}
        at_reading = {j: q for _, j, q in self.read_poses}
        return (replace(table, pieces=tuple(at_table.get(k, p)
                                            for k, p in enumerate(table.pieces))),
                replace(self.scene, pieces=tuple(
                    at_reading.get(j, p) if j >= 0 else p
                    for p, j in zip(self.scene.pieces, self.index_map, strict=True))))

    def to_reading(self, indices: tuple[int, ...]) -> tuple[int, ...]:
        """Indices into the judged scene as indices into the reading (restored ones left out)."""
        return tuple(self.index_map[i] for i in indices
                     if 0 <= i < len(self.index_map) and self.index_map[i] >= 0)


@dataclass(frozen=True)
class Reading:
    """The reading made consistent with the accepted table.

    Attributes:
        candidates: Consistent scenes to judge, the likeliest first (none: nothing can be
            judged on this reading).
        complete: True when the first candidate only fixes plain misreads (a face, a suit, a
            few millimetres, a tile under a coin): it may be judged either way. Otherwise a
            candidate may only confirm a legal move; anything else is a doubt.
        doubts: What looks wrong in the reading (said when it cannot be judged legal).
        resolved: What was resolved from the accepted table, in plain words.
        base: The reading with only the pieces not involved in the turn put right (None when
            even that is impossible).
        misread: Coins put midway between their worm's coins (:mod:`.misplaced`): each
            one's index in the camera's reading and the coin as read (a guess: a foul must not
            rest on it).
    """

    candidates: tuple[Candidate, ...]
    complete: bool = True
    doubts: tuple[ReadingDoubt, ...] = field(default_factory=tuple)
    resolved: tuple[str, ...] = field(default_factory=tuple)
    base: Candidate | None = None
    misread: tuple[tuple[int, Piece], ...] = ()

    def base_as_read(self) -> Scene | None:
        """The base scene with the coins of :attr:`misread` where they were read."""
        if self.base is None:
            return None
        where = dict(self.misread)
        return replace(self.base.scene, pieces=tuple(
            where.get(j, p) if j >= 0 else p
            for p, j in zip(self.base.scene.pieces, self.base.index_map, strict=True)))


def _coins_at(pieces: list[Piece | None], player: str) -> list[tuple[int, Point2]]:
    """Each of ``player``'s coins still in ``pieces`` (None: left out), with its centre."""
    return [(j, p.centre_mm) for j, p in enumerate(pieces)
            if p is not None and p.kind == "coin" and p.suit == player]


def tile_distance(p: Point2, tile: Piece, side_mm: float) -> float:
    """Distance from ``p`` to a tile's square (negative inside)."""
    a = math.radians(tile.angle_deg or 0.0)
    dx, dy = p[0] - tile.x_mm, p[1] - tile.y_mm
    lx, ly = math.cos(a) * dx + math.sin(a) * dy, -math.sin(a) * dx + math.cos(a) * dy
    h = side_mm / 2
    ox, oy = max(abs(lx) - h, 0.0), max(abs(ly) - h, 0.0)
    return math.hypot(ox, oy) if (ox or oy) else -min(h - abs(lx), h - abs(ly))


def _nearest(points: list[tuple[int, Point2]], p: Point2, within: float
             ) -> tuple[int, float] | None:
    best: tuple[int, float] | None = None
    for i, q in points:
        d = math.dist(p, q)
        if d <= within and (best is None or d < best[1]):
            best = (i, d)
    return best


BEND_GAP = 1.85
"""A gap at a bend (:func:`one_coin_places`) is tried only from this many coin widths apart (a
gentle bend): nearer, a coin laid over a neighbour's edge (an overlap) fits there too."""

GAP_SLACK = 0.08
"""Two coins of the worm on the move at most this share of a coin's width farther apart than
two widths leave a gap one coin fills (touching both): the coin not seen may lie there."""


def one_coin_gaps(mine_at: list[tuple[int, Point2]], pieces: list[Piece | None],
                  player: str, rules: ReadingRules) -> list[Piece]:
    """Where a coin of the mover's worm, read one coin short, may lie unseen, in gaps where
    the place is known (:func:`one_coin_places`; a gap at a bend, where it may lie on either
    side, is left out)."""
    return [places[0] for places in one_coin_places(mine_at, pieces, player, rules)
            if len(places) == 1]


def one_coin_places(mine_at: list[tuple[int, Point2]], pieces: list[Piece | None],
                    player: str, rules: ReadingRules) -> list[tuple[Piece, ...]]:
    """Where a coin of the mover's worm, read one coin short, may lie unseen: between two of
    its coins that no coin joins, two coin widths apart (give or take :data:`GAP_SLACK`; the
    coin between them then lies within ``same_place_mm`` of their midpoint: a bend leaves it
    on either side, not known which), on no other piece read. Tried as candidates that may
    only confirm a legal move. Each gap gives its place, or at a bend (the coin between them
    lies more than ``same_place_mm`` off their midpoint) its two places, one on either side,
    which are tried together (:class:`Candidate` ``twin``): both free of other pieces or
    neither given."""
    d = rules.coin_mm
    out: list[tuple[Piece, ...]] = []
    for a in range(len(mine_at)):
        for b in range(a + 1, len(mine_at)):
            pa, pb = mine_at[a][1], mine_at[b][1]
            gap = math.dist(pa, pb)
            if not 1.5 * d <= gap <= (2 + GAP_SLACK) * d:
                continue
            if any(k not in (a, b) and min(math.dist(c, pa), math.dist(c, pb)) < 1.2 * d
                   and math.dist(c, ((pa[0] + pb[0]) / 2, (pa[1] + pb[1]) / 2)) < d
                   for k, (_, c) in enumerate(mine_at)):
                continue  # a coin of the worm lies between them already
            mx, my = (pa[0] + pb[0]) / 2, (pa[1] + pb[1]) / 2
            half = gap / 2
            off = math.sqrt(max(0.0, d * d - half * half))
            places = [(mx, my)]
            if off >= rules.same_place_mm:  # a bend: on either side, which is not known
                if gap < BEND_GAP * d:
                    continue
                nx, ny = -(pb[1] - pa[1]) / gap, (pb[0] - pa[0]) / gap
                places = [(mx + off * nx, my + off * ny), (mx - off * nx, my - off * ny)]
            free = [(x, y) for x, y in places if not any(q is not None and (
                math.dist(q.centre_mm, (x, y)) < 0.8 * d if q.kind == "coin"
                else q.kind == "tile" and tile_distance((x, y), q, rules.tile_mm) < d / 2 - 1.0)
                for q in pieces)]
            if len(free) == len(places):
                out.append(tuple(Piece("coin", round(x, 2), round(y, 2), suit=player)
                                 for x, y in free))
    return out


GAP_FROM = 1.3
"""Two coins of a worm read one coin short at least this many coin widths apart (and at most
two and :data:`GAP_SLACK`) with no coin of it between: the coin not seen may lie between them,
beside or under one of them (:func:`_the_one_coin_gap`)."""


def _the_one_coin_gap(mine_at: list[tuple[int, Point2]], d: float
                      ) -> tuple[Point2, Point2] | None:
    """The one pair of a worm's coins with a coin's gap between them (:data:`GAP_FROM`), where
    a coin read one short may lie hidden; None when there is no such pair or more than one."""
    pairs = []
    for a in range(len(mine_at)):
        for b in range(a + 1, len(mine_at)):
            pa, pb = mine_at[a][1], mine_at[b][1]
            if not GAP_FROM * d <= math.dist(pa, pb) <= (2 + GAP_SLACK) * d:
                continue
            mid = ((pa[0] + pb[0]) / 2, (pa[1] + pb[1]) / 2)
            if any(k not in (a, b) and math.dist(c, mid) < d for k, (_, c) in enumerate(mine_at)):
                continue  # a coin of the worm lies between them: they are no neighbours
            pairs.append((pa, pb))
    return pairs[0] if len(pairs) == 1 else None


ACE_REACH_TILES = 2.5
"""After an ace, the one tile read where none lay is the tile slid there from the one place
within this many tile widths where a tile is no longer read (a slide too far included); a tile
not read farther off is a tile not seen (a misread), not part of the move."""


def _slid_on_an_ace(old_p: list[Piece], new_p: tuple[Piece, ...], gone: list[int],
                    came: list[int], rules: ReadingRules) -> tuple[int, int] | None:
    """After an ace, ``(old index, new index)`` of the tile slid: one tile read where none lay
    and exactly one tile not read where it lay within :data:`ACE_REACH_TILES` of it (other
    tiles not read lie farther off: not seen). None when it is not that."""
    if not rules.obstacle_may_move or len(came) != 1 or not gone:
        return None
    q = new_p[came[0]]
    if q.kind != "tile" or any(old_p[k].kind != "tile" for k in gone):
        return None
    if len(gone) == 1:
        return gone[0], came[0]
    near = [k for k in gone
            if math.dist(old_p[k].centre_mm, q.centre_mm) <= ACE_REACH_TILES * rules.tile_mm]
    return (near[0], came[0]) if len(near) == 1 else None


def _coin_read_as_still(pieces: list[Piece | None], old_coins: list[tuple[int, Piece]],
                        rules: ReadingRules) -> list[str]:
    """A coin of one worm read with the suit of a worm lying still (issue 13: the previous
    accepted table resolves a doubtful reading of pieces that did not move): that worm shows
    every one of its coins where it lay and one coin more, where none of its coins lay, so that
    coin is none of its own (a worm that does not move keeps its coins, and the steps of a move
    lift them); one other worm shows one coin too few (the mover's, or a worm moved out of
    turn), and the coin lies within :data:`referee.worm_derby.suit_lending.REACH_COINS` coin
    widths of that worm's coins (seen now, or where they lay): it is that worm's coin, its suit
    misread. Puts the suit right in ``pieces`` (the coin keeps its place and index: a plain
    misread, like a coin where one lay read with another worm's suit) and says what it did.
    Nothing when the worm showing one too many may get a coin back (an eaten coin, on an ace),
    or more than one coin or worm is off."""
    counts = Counter(p.suit for p in pieces if p is not None and p.kind == "coin")
    pair = one_over_one_short(counts, rules.lengths, rules.may_gain_one)
    if pair is None:
        return []
    still, owner = pair
    mine_at = _coins_at(pieces, still)
    lay = [(k, p.centre_mm) for k, p in old_coins if p.suit == still]
    if len(lay) != rules.lengths[still] or any(
            _nearest(mine_at, c, rules.same_place_mm) is None for _, c in lay):
        return []  # not every coin of it lies where it lay: it may have moved
    extra = [j for j, c in mine_at if _nearest(lay, c, rules.stayed_mm) is None]
    if len(extra) != 1:
        return []
    j = extra[0]
    q = pieces[j]
    assert q is not None
    near = [c for _, c in _coins_at(pieces, owner)] + \
        [p.centre_mm for _, p in old_coins if p.suit == owner]
    if not any(math.dist(q.centre_mm, c) <= REACH_COINS * rules.coin_mm for c in near):
        return []
    pieces[j] = replace(q, suit=owner)
    return [f"the coin at {at(q.centre_mm)} is {possessive(owner)} (read as "
            f"{possessive(still)}, whose worm lies still where it lay)"]


def reconcile(old: Scene, new: Scene, rules: ReadingRules) -> Reading:
    """The new reading checked against the accepted table ``old`` (see the module doc)."""
    pieces: list[Piece | None] = list(new.pieces)
    resolved: list[str] = []
    doubts: list[ReadingDoubt] = []
    complete = True
    old_k = [k for k, p in enumerate(old.pieces) if p.kind not in IGNORED_KINDS]
    old_p = [old.pieces[k] for k in old_k]
    restored: list[Piece] = []
    read_poses: list[tuple[int, int, Piece]] = []

    # -- fixed pieces: tiles keep their face where they lie; a few mm off is the same tile
    olds = [(k, p) for k, p in enumerate(old_p) if p.kind in FIXED_KINDS]
    news = [(j, p) for j, p in enumerate(new.pieces) if p.kind in FIXED_KINDS]
    used_old: set[int] = set()
    used_new: set[int] = set()
    pairs = sorted((math.dist(p.centre_mm, q.centre_mm), k, j)
                   for k, p in olds for j, q in news if p.kind == q.kind)
    for d, k, j in pairs:
        if d > rules.stayed_mm or k in used_old or j in used_new:
            continue
        used_old.add(k)
        used_new.add(j)
        p, q = old_p[k], new.pieces[j]
        if (q.face, q.suit) != (p.face, p.suit) or d > rules.same_place_mm:
            resolved.append(f"the {p.kind} at {at(p.centre_mm)} stayed as it was")
        pieces[j] = replace(q, x_mm=p.x_mm, y_mm=p.y_mm, angle_deg=p.angle_deg, face=p.face,
                            suit=p.suit)
        if (q.x_mm, q.y_mm, q.angle_deg) != (p.x_mm, p.y_mm, p.angle_deg):
            read_poses.append((old_k[k], j, replace(q, face=p.face, suit=p.suit)))
    gone = [k for k, _ in olds if k not in used_old]
    came = [j for j, _ in news if j not in used_new]
    slid = _slid_on_an_ace(old_p, new.pieces, gone, came, rules)
    if slid is not None:
        # the ace's move (of an obstacle, or wrongly of another tile): a tile is slid, not
        # turned over, so it keeps the face it had (a face read otherwise is a misread)
        k, j = slid
        p, q = old_p[k], new.pieces[j]
        if (q.face, q.suit) != (p.face, p.suit):
            pieces[j] = replace(q, face=p.face, suit=p.suit)
            resolved.append(f"the {p.kind} moved from {at(p.centre_mm)} is the same tile")
        gone, came = [k2 for k2 in gone if k2 != k], []
    coins_now = [(j, p.centre_mm) for j, p in enumerate(new.pieces) if p.kind == "coin"]
    for k in gone:
        p = old_p[k]
        cover = [j for j, c in coins_now
                 if tile_distance(c, p, rules.tile_mm) < rules.coin_mm / 2 + 2.0] \
            if p.kind == "tile" else \
            [j for j, c in coins_now if math.dist(c, p.centre_mm) < rules.coin_mm]
        restored.append(p)
        if cover:
            resolved.append(f"the {p.kind} at {at(p.centre_mm)} is hidden by a coin")
            continue
        complete = False
        what = "obstacle" if p.kind == "tile" and p.face == "down" else p.kind
        doubts.append(ReadingDoubt(f"the {what} at {at(p.centre_mm)} is not seen: is it "
                                   f"hidden, or did it move?", p.centre_mm))
    for j in came:
        q = new.pieces[j]
        pieces[j] = None
        complete = False
        doubts.append(ReadingDoubt(f"a {q.kind} is seen at {at(q.centre_mm)} where there was "
                                   f"none: is it a misread, or was it put there?", q.centre_mm,
                                   (j,)))

    # -- coins: a coin where one lay keeps its suit when the reading is unsure or unbalanced
    old_coins = [(k, p) for k, p in enumerate(old_p) if p.kind == "coin"]
    players = set(rules.players) | set(rules.lengths)
    counts = Counter(p.suit for p in new.pieces if p.kind == "coin")
    for j, q in enumerate(new.pieces):
        if q.kind != "coin":
            continue
        near = _nearest([(k, p.centre_mm) for k, p in old_coins], q.centre_mm, rules.stayed_mm)
        if near is None:
            continue
        p = old_p[near[0]]
        if q.suit == p.suit or p.suit not in players:
            continue
        unsure = q.suit not in players or (
            counts[q.suit] > rules.lengths.get(q.suit or "", 0)
            and counts[p.suit] < rules.lengths.get(p.suit or "", 0))
        if unsure:
            counts[q.suit] -= 1
            counts[p.suit] += 1
            pieces[j] = replace(q, suit=p.suit, face=p.face)
            resolved.append(f"the coin at {at(p.centre_mm)} is {possessive(p.suit or '')}")
    # -- a coin read a few mm off the place of one of its worm's coins stayed (steps are whole
    # coin widths)
    for j, seen_p in enumerate(pieces):
        if seen_p is None or seen_p.kind != "coin":
            continue
        same = [(k, p.centre_mm) for k, p in old_coins if p.suit == seen_p.suit]
        near = _nearest(same, seen_p.centre_mm, rules.stayed_mm)
        if near is not None and near[1] > rules.same_place_mm:
            p = old_p[near[0]]
            pieces[j] = replace(seen_p, x_mm=p.x_mm, y_mm=p.y_mm)
    # -- a coin of a worm lying still, where none of its coins lay, is the one worm's a coin
    # short (its suit misread: :func:`_coin_read_as_still`)
    resolved.extend(_coin_read_as_still(pieces, old_coins, rules))
    # -- coins of no worm in the race: one lying where such a coin lay stays (an obstacle);
    # a coin read without a suit is the one worm's a coin short, when it lies within its reach
    # (:mod:`.suit_lending`); any other is not judged
    strays = [(k, p.centre_mm) for k, p in old_coins if p.suit not in players]
    at_strays = frozenset(j for j, q in enumerate(pieces) if q is not None and q.kind == "coin"
                          and _nearest(strays, q.centre_mm, rules.stayed_mm) is not None)
    pieces, lent = lend_suits(pieces, rules.lengths, rules.coin_mm, {
        player: [p.centre_mm for _, p in old_coins if p.suit == player]
        for player in rules.lengths}, at_strays)
    resolved.extend(lent)
    for j, seen_p in enumerate(pieces):
        if seen_p is not None and seen_p.kind == "coin" and seen_p.suit not in players:
            q = seen_p
            near = _nearest(strays, q.centre_mm, rules.stayed_mm)
            if near is not None:
                strays = [s for s in strays if s[0] != near[0]]
                p = old_p[near[0]]
                pieces[j] = replace(q, x_mm=p.x_mm, y_mm=p.y_mm, suit=p.suit)
                continue
            pieces[j] = None
            complete = False
            doubts.append(ReadingDoubt(f"a coin at {at(q.centre_mm)} belongs to no worm in the "
                                       f"race ({q.suit or 'suit unknown'}): is it a misread?",
                                       q.centre_mm, (j,)))
    for k, stray_at in strays:  # not seen: still there, unless something lies there now
        p = old_p[k]
        restored.append(p)
        if any(q is not None and math.dist(q.centre_mm, stray_at) < rules.coin_mm
               for q in pieces):
            complete = False
            doubts.append(ReadingDoubt(f"the {p.suit or 'unknown'} coin at {at(stray_at)} is not "
                                       f"seen: is it hidden, or did it move?", stray_at))
        else:
            resolved.append(f"the {p.suit or 'unknown'} coin at {at(stray_at)} stayed as it was")
    # -- a worm known in part lies still when this reading, in part too, fits that
    for player, n in rules.partial.items():
        mine_at = _coins_at(pieces, player)
        theirs = [p for _, p in old_coins if p.suit == player]
        if not fits_lying_still([p.centre_mm for p in theirs], [c for _, c in mine_at], n,
                                rules.coin_mm, rules.touch_factor, rules.stayed_mm):
            continue
        for p in theirs:
            if _nearest(mine_at, p.centre_mm, rules.stayed_mm) is None:
                restored.append(p)
                resolved.append(f"the {player} coin at {at(p.centre_mm)} is not seen: its "
                                f"worm lies still")
    # -- each worm keeps its coins
    mover_missing: list[Piece] = []
    gap_coins: list[tuple[Piece, ...]] = []
    maybe_eaten: list[Piece] = []
    for player, n in rules.lengths.items():
        mine = [j for j, p in enumerate(pieces)
                if p is not None and p.kind == "coin" and p.suit == player]
        mine_at = _coins_at(pieces, player)
        seen = len(mine)
        old_mine = [(k, p) for k, p in old_coins if p.suit == player]
        if seen == n - 1 and player in rules.may_lose_one:
            # eaten (a coin of the mover lies where it lay), or not seen: then the reading may
            # only confirm a move
            lost = [p for _, p in old_mine
                    if _nearest(mine_at, p.centre_mm, rules.same_place_mm) is None]
            movers = [(j, p.centre_mm) for j, p in enumerate(pieces)
                      if p is not None and p.kind == "coin" and p.suit == rules.mover]
            if any(_nearest(movers, p.centre_mm, rules.stayed_mm) for p in lost):
                continue
            complete = False
            maybe_eaten += lost
            doubts.append(ReadingDoubt(
                f"{possessive(player)} worm shows {seen} of its {n} coins and none was eaten: "
                f"is a coin hidden or misread?", None, tuple(mine)))
            continue
        if seen == n or (seen == n + 1 and player in rules.may_gain_one):
            continue
        unmatched_old = [p for _, p in old_mine
                         if _nearest(mine_at, p.centre_mm, rules.same_place_mm) is None]
        under = [p for p in unmatched_old if any(
            q is not None and q.kind == "coin" and
            math.dist(q.centre_mm, p.centre_mm) < HIDDEN_UNDER * rules.coin_mm for q in pieces)]
        if seen < n and len(under) == n - seen:
            restored.extend(under)  # a coin laid over another hides it: it is still there
            resolved.extend(f"the {player} coin at {at(p.centre_mm)} is hidden under a coin"
                            for p in under)
            continue
        theirs_at = [(k, p.centre_mm) for k, p in old_mine]
        unmatched_new = [j for j, c in mine_at
                         if _nearest(theirs_at, c, rules.same_place_mm) is None]
        place_of = dict(mine_at)
        complete = False
        if seen < n:
            where = unmatched_old[0].centre_mm if unmatched_old and player != rules.mover \
                else None
            place = f" (one lay at {at(where)})" if where is not None else ""
            if player == rules.mover and seen == n - 1:
                pair = _the_one_coin_gap(mine_at, rules.coin_mm)
                if pair is not None:  # rung where it may lie (under or beside a coin)
                    where = ((pair[0][0] + pair[1][0]) / 2, (pair[0][1] + pair[1][1]) / 2)
                    place = f" (one may lie under or between the coins at {at(pair[0])} " \
                            f"and {at(pair[1])})"
            doubts.append(ReadingDoubt(
                f"{possessive(player)} worm shows {seen} of its {n} coins{place}: is a coin "
                f"hidden or misread?", where, tuple(mine)))
            if player == rules.mover:
                mover_missing.extend(unmatched_old)
                if seen == n - 1:
                    gap_coins.extend(one_coin_places(mine_at, pieces, player, rules))
            elif len(unmatched_old) == n - seen:
                restored.extend(unmatched_old)  # the worm not on the move stays
            else:
                return Reading((), False, tuple(doubts), tuple(resolved))
        else:
            where = place_of[unmatched_new[-1]] if unmatched_new else None
            doubts.append(ReadingDoubt(
                f"{possessive(player)} worm shows {seen} coins; it has {n}: is a coin of "
                f"another colour misread?", where, tuple(unmatched_new) or tuple(mine)))
            if player != rules.mover and len(unmatched_new) == seen - n:
                for j in unmatched_new:
                    pieces[j] = None  # a worm not on the move gets no coins
            else:
                return Reading((), False, tuple(doubts), tuple(resolved))
    # -- a coin read overlapping one neighbour and clear of the other lies midway between them
    misread: list[tuple[int, Piece]] = []
    if rules.overlap_mm is not None:
        for player in rules.lengths:
            mine_at = _coins_at(pieces, player)
            for i, (x, y) in misplaced_coins([c for _, c in mine_at], rules.coin_mm,
                                             rules.overlap_mm, rules.centre_noise_mm,
                                             rules.same_place_mm):
                j, read_at = mine_at[i]
                seen_p = pieces[j]
                assert seen_p is not None
                misread.append((j, seen_p))
                pieces[j] = replace(seen_p, x_mm=round(x, 2), y_mm=round(y, 2))
                complete = False
                doubts.append(ReadingDoubt(
                    f"the {player} coin at {at(read_at)} reads overlapping one of its worm's "
                    f"coins with a gap on its other side: is it misread?", read_at, (j,)))
    kept = [(j, p) for j, p in enumerate(pieces) if p is not None]
    base = put_right = Candidate(replace(new, pieces=(*(p for _, p in kept), *restored)),
                                 (*(j for j, _ in kept), *([-1] * len(restored))))
    candidates = [base]
    if len(maybe_eaten) == 1:  # no coin of the mover lies where it lay: not eaten, so it is
        # tried first as still there (a legal move is not confirmed on a worm losing a coin),
        # and it is the reading with the pieces not in the turn put right (a guess, as a
        # coin of a worm not on the move put back is)
        put_right = Candidate(replace(base.scene, pieces=(*base.scene.pieces, *maybe_eaten)),
                              (*base.index_map, -1))
        candidates.insert(0, put_right)
    for p in mover_missing:
        candidates.append(Candidate(replace(base.scene, pieces=(*base.scene.pieces, p)),
                                    (*base.index_map, -1)))
    for places in gap_coins:
        scenes = [replace(base.scene, pieces=(*base.scene.pieces, p)) for p in places]
        candidates.append(Candidate(scenes[0], (*base.index_map, -1),
                                    scenes[1] if len(scenes) > 1 else None))
    if mover_missing or gap_coins:
        candidates = candidates[1:] + candidates[:1]
    poses = tuple(read_poses)
    return Reading(tuple(replace(c, read_poses=poses) for c in candidates), complete,
                   tuple(doubts), tuple(resolved), replace(put_right, read_poses=poses),
                   tuple(misread))
