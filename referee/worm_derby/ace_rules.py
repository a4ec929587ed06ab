"""The rules of a Worm Derby ace in the basic game: one obstacle moved, each a named check.

After an ace the player may move one obstacle (a face-down tile) at most one tile width, then
rolls again. :func:`judge_obstacle_move` asks the rules of :data:`ACE_RULES` in order; the
first that finds something says the verdict. (Slalom moves no obstacle; Cannibal's ace may
return an eaten coin instead: :mod:`referee.worm_derby.variants`.)
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from referee.base import Judgement
from referee.geometry.obstacles import piece_shape
from referee.worm_derby.judging import judged
from referee.worm_derby.rules import Rule
from referee.worm_derby.state import DerbyState
from referee.worm_derby.table import IGNORED_KINDS, scene_diff
from referee.worm_derby.words import at
from tabletop.scene import Piece, Scene

if TYPE_CHECKING:
    from referee.worm_derby.game import WormDerby


@dataclass(frozen=True)
class AceMove:
    """The table after an ace as the rules see it: what left and what came.

    Attributes:
        game: The game (settings, pieces).
        scene: The table after the ace.
        player: The player who rolled it.
        came: Indices in ``scene`` of the pieces that came (moved to where they are).
        old: The pieces that left their places on the accepted table.
        new: The pieces that came, in ``came`` order.
    """

    game: WormDerby
    scene: Scene
    player: str
    came: tuple[int, ...]
    old: tuple[Piece, ...]
    new: tuple[Piece, ...]

    @property
    def distance_mm(self) -> float:
        """How far the one obstacle moved (asked once :func:`rule_one_obstacle` passed)."""
        return math.dist(self.old[0].centre_mm, self.new[0].centre_mm)


AceRule = Callable[[AceMove], Judgement | None]


def rule_course_tiles_stay(ace: AceMove) -> Judgement | None:
    """``obstacle``: the start tiles, the pylon and the gates (face up) never move."""
    if any(p.kind == "tile" and p.face == "up" for p in ace.old + ace.new):
        return judged(Rule.OBSTACLE, "the start tiles, the pylon and the gates never move",
                      ace.came)
    return None


def rule_one_obstacle(ace: AceMove) -> Judgement | None:
    """``obstacle``: one tile moves, nothing else."""
    if len(ace.old) != 1 or len(ace.new) != 1 or ace.old[0].kind != "tile" or \
            ace.new[0].kind != "tile":
        return judged(Rule.OBSTACLE, f"after an ace only one obstacle may move (at most one tile "
                                     f"width), then {ace.player} rolls again", ace.came)
    return None


def rule_one_tile_width(ace: AceMove) -> Judgement | None:
    """``obstacle``: the obstacle moves at most one tile width."""
    tile, dist = ace.game.pieces.tile_mm, ace.distance_mm
    if dist > tile + ace.game.settings.same_place_mm:
        return judged(Rule.OBSTACLE, f"the obstacle moved {dist:.0f} mm; an ace moves it at most "
                                     f"one tile width ({tile:.1f} mm)", ace.came,
                      ace.new[0].centre_mm)
    return None


def rule_lands_clear(ace: AceMove) -> Judgement | None:
    """``overlap``: the moved obstacle overlaps no other piece."""
    pieces, moved = ace.game.pieces, ace.new[0]
    poly = piece_shape(moved, pieces)[0]
    for i, p in enumerate(ace.scene.pieces):
        if i == ace.came[0] or p.kind in IGNORED_KINDS:
            continue
        shape, radius = piece_shape(p, pieces)
        depth = radius - poly.distance(shape) if radius else (
            poly.intersection(shape).area ** 0.5)
        if depth > ace.game.settings.overlap_tolerance_mm:
            return judged(Rule.OVERLAP, f"the moved obstacle at {at(moved.centre_mm)} overlaps "
                                        f"the {p.kind} at {at(p.centre_mm)}", (ace.came[0], i),
                          moved.centre_mm)
    return None


ACE_RULES: tuple[AceRule, ...] = (
    rule_course_tiles_stay, rule_one_obstacle, rule_one_tile_width, rule_lands_clear)
"""The rules of an obstacle moved after an ace, in the order they are asked."""


def judge_obstacle_move(game: WormDerby, state: DerbyState, scene: Scene, player: str
                        ) -> tuple[Judgement, DerbyState]:
    """Judges the table after ``player``'s ace: the judgement, and the state it leads to (the
    same state unless legal)."""
    assert state.table is not None and state.course is not None
    s = game.settings
    gone, came = scene_diff(state.table, scene, s.same_place_mm, s.same_angle_deg)
    ace = AceMove(game, scene, player, tuple(came), tuple(state.table.pieces[i] for i in gone),
                  tuple(scene.pieces[j] for j in came))
    for rule in ACE_RULES:
        found = rule(ace)
        if found is not None:
            return found, state
    new = replace(state, table=scene, roll="again")
    return judged(Rule.OK, f"{player} moved the obstacle at {at(ace.old[0].centre_mm)} by "
                           f"{ace.distance_mm:.0f} mm; roll again", (ace.came[0],),
                  ace.new[0].centre_mm), new
