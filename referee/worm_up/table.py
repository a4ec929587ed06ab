"""A table read as Worm Up! pieces: each colour's segments, the posts, and what makes it no
Worm Up! table at all (python-chess's ``Status`` bits), asked before any rule."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import IntFlag
from typing import TYPE_CHECKING

from referee.base import RuleBroken
from referee.worm_up import geometry as geo
from referee.worm_up.rules import MISREAD, Rule, foul
from tabletop.scene import Point2, Scene

if TYPE_CHECKING:
    from referee.worm_up.game import WormUp


class Status(IntFlag):
    """What makes a table physically not a Worm Up! table (python-chess's ``Status`` bits)."""

    VALID = 0
    SEGMENTS = 1     # a worm has not exactly its segments
    SPLIT = 2        # a worm's segments do not form one chain of touching segments
    TOUCHING = 4     # two worms touch
    POSTS = 8        # fewer than two posts


@dataclass(frozen=True)
class TableRead:
    """A scene read as Worm Up! pieces: each colour's segments and the posts, with indices."""

    segments: Mapping[str, tuple[tuple[int, Point2], ...]]
    posts: tuple[tuple[int, Point2], ...]
    confidence: Mapping[int, float] = field(default_factory=dict)
    """Scene index -> how sure vision was of the piece (pieces it did not say: absent)."""

    def centres(self, player: str) -> list[Point2]:
        """The centres of ``player``'s segments."""
        return [c for _, c in self.segments.get(player, ())]

    def indices(self, player: str) -> list[int]:
        """The scene indices of ``player``'s segments."""
        return [i for i, _ in self.segments.get(player, ())]

    def unsure(self, index: int, below: float) -> bool:
        """Whether vision read the piece at scene ``index`` with less confidence than
        ``below`` (a piece it did not rate is sure)."""
        sure = self.confidence.get(index)
        return sure is not None and sure < below


def read_unsurely(game: WormUp, read: TableRead, player: str) -> bool:
    """Whether vision was unsure (under ``misread_confidence``) of one of ``player``'s
    segments."""
    return any(read.unsure(i, game.settings.misread_confidence) for i in read.indices(player))


def chain_gap(game: WormUp, read: TableRead, player: str) -> float:
    """The chain gap for ``player``'s worm as read: ``chain_gap_mm``, plus ``misread_mm`` when
    vision was unsure of one of its segments (it may lie that far from where it was read)."""
    s = game.settings
    return s.chain_gap_mm + (s.misread_mm if read_unsurely(game, read, player) else 0.0)


def centroid(points: Sequence[Point2]) -> Point2 | None:
    """The mean of ``points`` to 0.1 mm (None for none)."""
    if not points:
        return None
    return pt((sum(p[0] for p in points) / len(points), sum(p[1] for p in points) / len(points)))


def pt(p: Point2) -> tuple[float, float]:
    """A point to 0.1 mm, as verdicts give it."""
    return (round(p[0], 1), round(p[1], 1))


def read_table(game: WormUp, scene: Scene) -> TableRead:
    """The players' segments (by colour) and every post on the table."""
    segs: dict[str, list[tuple[int, Point2]]] = {p: [] for p in game.players}
    posts: list[tuple[int, Point2]] = []
    for i, piece in enumerate(scene.pieces):
        if piece.kind == "segment" and piece.color in segs:
            segs[piece.color].append((i, piece.centre_mm))
        elif piece.kind == "post":
            posts.append((i, piece.centre_mm))
    sure = {i: float(p.confidence) for i, p in enumerate(scene.pieces)
            if p.confidence is not None}
    return TableRead({p: tuple(v) for p, v in segs.items()}, tuple(posts), sure)


def check_counts(game: WormUp, read: TableRead, rule: Rule) -> None:
    """Every worm has all its segments on the table (else a doubt: a misread first).

    Raises:
        RuleBroken: ``rule`` for the first worm short of (or over) its segments.
    """
    n = game.settings.segments
    for p in game.players:
        have = len(read.segments[p])
        if have != n:
            raise foul(rule, f"{p} has {have} segment{'s' if have != 1 else ''} on the "
                             f"table, not {n}.", p, read.indices(p), doubt=MISREAD)


def chain_of(game: WormUp, read: TableRead, player: str, rule: Rule) -> tuple[int, ...]:
    """The order of ``player``'s segments along its worm, end to end.

    Raises:
        RuleBroken: ``rule`` when they do not form one chain of touching segments (a doubt
            when they would with ``misread_mm`` more).
    """
    gap = chain_gap(game, read, player)
    order = geo.best_chain(read.centres(player), game.diameter_mm, gap)
    if order is None and geo.best_chain(read.centres(player), game.diameter_mm,
                                        gap + game.settings.misread_mm) is not None:
        # apart by no more than a reading may be off: not a confident reading
        raise foul(rule, f"{player}'s worm looks apart by a few millimetres.", player,
                   read.indices(player), doubt="are its segments touching, or is one misread?")
    if order is None:
        raise foul(rule, f"{player}'s segments do not form one chain of touching segments.",
                   player, read.indices(player))
    return order


def check_no_touch(game: WormUp, read: TableRead, player: str, only: Sequence[int] | None,
                   rule: Rule) -> None:
    """No segment of ``player`` (or just those at ``only``) touches another worm (a segment
    vision was unsure of touches only ``misread_mm`` nearer)."""
    mine = read.segments[player]
    if only is not None:
        mine = tuple(mine[k] for k in only)
    s = game.settings
    for other in game.players:
        if other == player:
            continue
        for i, a in mine:
            for j, b in read.segments[other]:
                unsure = read.unsure(i, s.misread_confidence) or \
                    read.unsure(j, s.misread_confidence)
                gap = s.touch_gap_mm - (s.misread_mm if unsure else 0.0)
                if geo.touch(a, b, game.diameter_mm, gap):
                    raise foul(rule, f"{player}'s worm touches {other}'s worm.", player,
                               (i, j), pt(((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)))


def table_status(game: WormUp, scene: Scene) -> Status:
    """Whether ``scene`` is physically a table of this game, as bits (``Status.VALID``: yes).

    Asked before any rule: a worm without its segments or not in one piece, worms touching,
    posts missing.
    """
    read = read_table(game, scene)
    out = Status.VALID
    if len(read.posts) < 2:
        out |= Status.POSTS
    for p in game.players:
        if len(read.segments[p]) != game.settings.segments:
            out |= Status.SEGMENTS
        elif geo.best_chain(read.centres(p), game.diameter_mm,
                            chain_gap(game, read, p)) is None:
            out |= Status.SPLIT
    for p in game.players:
        try:
            check_no_touch(game, read, p, None, Rule.TOUCH)
        except RuleBroken:
            out |= Status.TOUCHING
            break
    return out
