"""The rules of a Worm Derby move on a roll, each a named check.

A roll of 2-5 (or a Slalom ace) is played by one worm; the next table that differs from the
accepted one is judged by :func:`judge_move`: the rules of :data:`MOVE_RULES` are asked in
order, and the first that finds something says the verdict. Each rule is a small function
``rule_<what>(move) -> Judgement | None`` over a :class:`MoveCheck` (the facts of the move,
each worked out once when a rule first needs it). The rules of one step (``touch``,
``overlap``, ``gap``... of :mod:`referee.worm_derby.steps`) and the variants' step rules
(Cannibal's eating, Slalom's gates: :meth:`WormDerby.judge_step`) are asked for each coin laid,
in :func:`rule_each_step`.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import TYPE_CHECKING

from referee.base import Judgement
from referee.worm_derby.inference import InferredMove, infer_move
from referee.worm_derby.judging import judged
from referee.worm_derby.reading import STAYED_SHARE
from referee.worm_derby.rules import Rule
from referee.worm_derby.state import DerbyState, WormTrack
from referee.worm_derby.steps import StepWorld
from referee.worm_derby.table import IGNORED_KINDS, scene_diff
from referee.worm_derby.words import at, mm, ordinal, possessive, steps
from referee.worm_derby.worms import WormShape, extract_worm
from tabletop.scene import Piece, Point2, Scene

if TYPE_CHECKING:
    from referee.worm_derby.game import WormDerby

EATEN_LABEL = -1000  # labels of coins that are gone from the new scene (eaten): -1000 - k


@dataclass(frozen=True)
class MoveFacts:
    """What a legal move did, for the state update."""

    chain_mm: tuple[Point2, ...]
    placed: int
    eaten_player: str | None = None
    eaten_end: int | None = None  # 0 or -1: which end of the victim's track was eaten
    gates: frozenset[int] = frozenset()


@dataclass(frozen=True)
class PlacedCoin:
    """One coin laid in a move, as the step rules see it.

    Attributes:
        i: Its place among the coins laid (0 first).
        n: Its step number in the move (1 first; hidden placements count).
        index: Its index in the judged scene.
        head_mm: The worm's head before this step.
        at_mm: Where it was laid.
        last: Whether it is the move's last coin.
        eaten: The label of the coin it lies on and eats (Cannibal), else None.
    """

    i: int
    n: int
    index: int
    head_mm: Point2
    at_mm: Point2
    last: bool
    eaten: int | None = None


@dataclass
class Walk:
    """What the steps of a move did so far (filled in while they are checked, in order)."""

    gates: set[int] = field(default_factory=set)
    eaten_player: str | None = None
    eaten_end: int | None = None


@dataclass(frozen=True)
class OtherWorms:
    """The other worms on the judged table: each coin with its label (scene index, or
    :data:`EATEN_LABEL` - k for a coin no longer there), and the end coins gone (player ->
    0 or -1: which end of the track)."""

    coins: tuple[tuple[Piece, int], ...]
    missing_ends: dict[str, int]
    problem: Judgement | None = None


class MoveCheck:
    """One move on a roll as the rules see it: the facts each rule needs, worked out once.

    Args:
        game: The game (its settings, pieces and variant hooks).
        state: The state before the move (a course set up, a roll to play).
        scene: The table after the move.
        player: The player whose roll it is.
        limit: The steps the roll allows.
        diff: ``(gone, came)`` from :func:`referee.worm_derby.table.scene_diff`, if known.
    """

    def __init__(self, game: WormDerby, state: DerbyState, scene: Scene, player: str,
                 limit: int, diff: tuple[list[int], list[int]] | None = None) -> None:
        assert state.table is not None and state.course is not None
        self.game, self.state, self.scene = game, state, scene
        self.player, self.limit = player, limit
        self.settings = game.settings
        self.table: Scene = state.table
        s = self.settings
        self.diff = diff if diff is not None else scene_diff(
            state.table, scene, s.same_place_mm, s.same_angle_deg)

    def worm_coin(self, p: Piece) -> bool:
        """Whether ``p`` is a coin of a worm in the race."""
        return p.kind == "coin" and p.suit in self.game.players

    @property
    def track(self) -> WormTrack:
        """The moving worm as it was."""
        return self.state.worm(self.player)

    @cached_property
    def shape(self) -> WormShape:
        """The moving worm as read from the new table."""
        return extract_worm(self.scene, self.player, self.game.d, self.settings)

    @cached_property
    def new_pts(self) -> list[Point2]:
        """The moving worm's coins on the new table, in chain order."""
        return [self.scene.pieces[i].centre_mm for i in self.shape.coins]

    @cached_property
    def others(self) -> OtherWorms:
        """The other worms: they stay, but in Cannibal one may have lost an end coin."""
        s, scene = self.settings, self.scene
        missing_ends: dict[str, int] = {}
        coins: list[tuple[Piece, int]] = []
        for w in self.state.worms:
            if w.player == self.player:
                continue
            if w.player in self.state.unsure or w.player in self.state.provisional:  # not
                # read whole since it last moved (or placed from a reading since): where it
                # lies now is what it is, an obstacle, never a move to judge...
                mine = [(i, p) for i, p in enumerate(scene.pieces)
                        if p.kind == "coin" and p.suit == w.player]
                moved = self._moved_since_seen(w.player, w.length, mine)
                if moved:  # ...unless it was seen after its move and has moved since
                    return OtherWorms((), {}, judged(
                        "turn", f"{possessive(w.player)} worm moved, but it is "
                                f"{possessive(self.player)} turn; put {possessive(w.player)} "
                                f"worm back where it was", moved, mover=w.player))
                coins += [(p, i) for i, p in mine]
                continue
            other = extract_worm(scene, w.player, self.game.d, s)
            idx = list(other.coins) if other.status != "missing" else []
            if not idx and w.finished:
                continue
            pts = [scene.pieces[i].centre_mm for i in idx]
            lost = [k for k, c in enumerate(w.coins_mm)
                    if not any(math.dist(c, q) <= s.same_place_mm for q in pts)]
            extra = [i for i, q in zip(idx, pts, strict=True)
                     if not any(math.dist(c, q) <= s.same_place_mm for c in w.coins_mm)]
            if extra or len(lost) > 1 or (lost and lost[0] not in (0, len(w.coins_mm) - 1)):
                return OtherWorms((), {}, judged(
                    "turn", f"{possessive(w.player)} worm moved, but it is "
                            f"{possessive(self.player)} turn; put {possessive(w.player)} "
                            f"worm back where it was", tuple(extra) or tuple(idx),
                    mover=w.player))
            if lost:
                missing_ends[w.player] = 0 if lost[0] == 0 else -1
            for k, c in enumerate(w.coins_mm):
                j = next((i for i, q in zip(idx, pts, strict=True)
                          if math.dist(c, q) <= s.same_place_mm), None)
                label = j if j is not None else EATEN_LABEL - k
                coins.append((Piece("coin", c[0], c[1], suit=w.player), label))
        return OtherWorms(tuple(coins), missing_ends)

    def _moved_since_seen(self, player: str, length: int, mine: list[tuple[int, Piece]]
                          ) -> tuple[int, ...]:
        """The coins of an unsure worm read where none of it lay when it was last seen (nearer
        than half a coin's width is a misread, not a move), when it was last seen after its
        move (the accepted table holds fewer coins of it than its length: a reading that stood
        one coin short), it is read whole now and a coin it was seen on is gone: it moved
        since. Empty otherwise (a
        worm whose move was never seen may lie anywhere)."""
        near = STAYED_SHARE * self.game.d  # a coin read nearer its place than this did not move
        seen = [p.centre_mm for p in self.table.pieces if p.kind == "coin" and p.suit == player]
        if len(seen) >= length or len(mine) != length:
            return ()  # not seen short after its move, or not read whole now
        gone = [c for c in seen if not any(math.dist(c, p.centre_mm) <= near for _, p in mine)]
        came = tuple(i for i, p in mine if not any(math.dist(c, p.centre_mm) <= near
                                                    for c in seen))
        return came if gone else ()

    @cached_property
    def inferred(self) -> InferredMove | Judgement | None:
        """Which way the worm went and which coins were laid (None: it did not move)."""
        s = self.settings
        return infer_move(self.track.coins_mm, self.new_pts, s.same_place_mm,
                          s.touch_factor * self.game.d)

    @property
    def made(self) -> InferredMove:
        """The move read (asked only once :func:`rule_worm_moved` has passed)."""
        assert isinstance(self.inferred, InferredMove)
        return self.inferred

    @cached_property
    def body(self) -> list[Point2]:
        """The worm before the move, tail first and head (the end it moved from) last."""
        coins = list(self.track.coins_mm)
        return coins if self.made.forward else coins[::-1]

    @cached_property
    def placed_idx(self) -> list[int]:
        """Scene indices of the coins laid, in the order they were laid."""
        return [self.shape.coins[self.made.new_order[i]] for i in self.made.placed_at]

    @cached_property
    def chain(self) -> list[Point2]:
        """The worm after the move, tail first."""
        return [self.new_pts[i] for i in self.made.new_order]

    @cached_property
    def world(self) -> StepWorld:
        """The table without the moving worm, as it was during the move."""
        scene, state = self.scene, self.state
        fixed = [(scene.pieces[i], i) for i, p in enumerate(scene.pieces)
                 if not self.worm_coin(p) and p.kind not in IGNORED_KINDS]
        edible_labels = set()
        for victim, end in self.game.edible(state, self.player):
            vt = state.worm(victim)
            k = 0 if end == 0 else len(vt.coins_mm) - 1
            c = vt.coins_mm[k]
            for piece, label in self.others.coins:
                if piece.suit == victim and math.dist(piece.centre_mm, c) < 1e-6:
                    edible_labels.add(label)
        return StepWorld(fixed + list(self.others.coins), self.game.pieces, self.settings,
                         frozenset(edible_labels))

    @cached_property
    def walked(self) -> tuple[Judgement | None, MoveFacts | None]:
        """Each coin laid checked in turn: the first problem, else what the move did."""
        return _walk(self)


MoveRule = Callable[[MoveCheck], Judgement | None]


def rule_obstacles_stay(move: MoveCheck) -> Judgement | None:
    """``obstacle``: tiles and stray pieces never move on a roll."""
    table, scene = move.table, move.scene
    gone_all, came_all = move.diff
    gone = [i for i in gone_all if not move.worm_coin(table.pieces[i])]
    came = [j for j in came_all if not move.worm_coin(scene.pieces[j])]
    if not gone and not came:
        return None
    p0 = scene.pieces[came[0]] if came else table.pieces[gone[0]]
    return judged(Rule.OBSTACLE, f"the {p0.kind} at {at(p0.centre_mm)} moved; on a roll of "
                                 f"{move.limit} only {possessive(move.player)} worm moves",
                  tuple(came))


def rule_worm_is_one_chain(move: MoveCheck) -> Judgement | None:
    """``shape``: the moving worm is one chain of touching coins (not split, not branched)."""
    shape, player, s = move.shape, move.player, move.settings
    if shape.status == "split":
        stray = move.scene.pieces[shape.pieces[0]]
        return judged(Rule.SHAPE, f"the {player} coin at {at(stray.centre_mm)} does not touch "
                                  f"the rest of its worm, which is split in two (touching coins "
                                  f"are at most {mm(s.touch_factor * move.game.d)} apart); move it "
                                  f"back against the worm", shape.pieces, stray.centre_mm)
    if shape.ok:
        return None
    return judged(Rule.SHAPE, f"{possessive(player)} worm "
                              f"{shape.detail.replace(f'the {player} ', '')}"
                  if shape.status != "missing" else shape.detail, shape.pieces)


def rule_other_worms_stay(move: MoveCheck) -> Judgement | None:
    """``turn``: only the player's worm moves (another worm may only lose an end coin)."""
    return move.others.problem


def rule_worm_keeps_its_length(move: MoveCheck) -> Judgement | None:
    """``shape``: the worm has as many coins as before."""
    n, length = len(move.new_pts), move.track.length
    if n == length:
        return None
    return judged(Rule.SHAPE, f"{possessive(move.player)} worm has {n} coins; it should have "
                              f"{length}", move.shape.coins)


def rule_worm_moved(move: MoveCheck) -> Judgement | None:
    """``turn`` (the worm did not move) or the reason the new coins are no move of whole steps
    from one end (``tail``, ``steps``... of :func:`referee.worm_derby.inference.infer_move`)."""
    inferred, player = move.inferred, move.player
    if inferred is None:
        if move.others.missing_ends:
            victim = next(iter(move.others.missing_ends))
            return judged(Rule.TURN, f"a coin of {possessive(victim)} worm is gone, but "
                                     f"{possessive(player)} worm did not move")
        return replace(judged(Rule.TURN, f"something changed, but {possessive(player)} worm "
                                         f"did not move"),
                       doubt="is a piece misread?")  # what changed is no one's move: asked
    if isinstance(inferred, Judgement):
        return judged(inferred.rule, f"{possessive(player)} "
                                     f"{inferred.reason.removeprefix('the ')}",
                      move.shape.coins)
    return None


def rule_direction(move: MoveCheck) -> Judgement | None:
    """``direction``: the variant's rule on the end the worm moved from (Cannibal: away from
    its attacker)."""
    return move.game.direction_problem(move.state, move.player, move.body)


def rule_at_most_the_roll(move: MoveCheck) -> Judgement | None:
    """``steps``: no more steps than the roll allows."""
    m, limit = move.made, move.limit
    if m.steps <= limit:
        return None
    extra = m.steps - limit
    last = move.shape.coins[m.new_order[m.placed_at[-1]]]
    back = "coin" if extra == 1 else f"{extra} coins"
    return judged(Rule.STEPS, f"{possessive(move.player)} worm moved {steps(m.steps)} on "
                              f"a roll allowing {steps(limit)}; put the last {back} placed "
                              f"(the head at {at(move.scene.pieces[last].centre_mm)}) back at "
                              f"the tail", tuple(move.placed_idx))


def rule_each_step(move: MoveCheck) -> Judgement | None:
    """Each coin laid, in turn: ``touch``, ``overlap``, ``gap``... (one step on the table, see
    :class:`referee.worm_derby.steps.StepWorld`), then the variant's step rules
    (:meth:`WormDerby.judge_step`: Cannibal's ``cannibal``, Slalom's ``gate``)."""
    return move.walked[0]


def rule_gone_coins_eaten(move: MoveCheck) -> Judgement | None:
    """``turn``: a coin gone from another worm was eaten by this move."""
    facts = move.walked[1]
    assert facts is not None
    unexplained = set(move.others.missing_ends) - (
        {facts.eaten_player} if facts.eaten_player else set())
    if not unexplained:
        return None
    victim = next(iter(unexplained))
    return judged(Rule.TURN, f"a coin of {possessive(victim)} worm is gone, but no worm ate it")


def rule_as_many_as_possible(move: MoveCheck) -> Judgement | None:
    """``steps``: fewer steps than the roll only when no more were possible (eating a coin
    ends a move)."""
    facts = move.walked[1]
    assert facts is not None
    taken, limit = move.made.steps, move.limit
    if taken >= limit or facts.eaten_player is not None:
        return None
    possible = most_steps(move.game, move.state, move.world, move.player, limit)
    if possible <= taken:
        return None
    return judged(Rule.STEPS, f"{possessive(move.player)} worm moved {steps(taken)} on a roll "
                              f"of {limit}, but {possible} were possible", tuple(move.placed_idx))


MOVE_RULES: tuple[tuple[tuple[Rule, ...], MoveRule], ...] = (
    ((Rule.OBSTACLE,), rule_obstacles_stay),
    ((Rule.SHAPE,), rule_worm_is_one_chain),
    ((Rule.TURN,), rule_other_worms_stay),
    ((Rule.SHAPE,), rule_worm_keeps_its_length),
    ((Rule.TURN, Rule.SHAPE, Rule.DIRECTION), rule_worm_moved),
    ((Rule.DIRECTION,), rule_direction),
    ((Rule.STEPS,), rule_at_most_the_roll),
    ((Rule.TOUCH, Rule.OVERLAP, Rule.SHAPE, Rule.GAP, Rule.CANNIBAL, Rule.GATE), rule_each_step),
    ((Rule.TURN,), rule_gone_coins_eaten),
    ((Rule.STEPS,), rule_as_many_as_possible),
)
"""The rules of a move, in the order they are asked, each with the rule codes it may say."""

RULES_BY_CODE: dict[Rule, tuple[MoveRule, ...]] = {
    code: tuple(rule for codes, rule in MOVE_RULES if code in codes)
    for code in sorted({c for codes, _ in MOVE_RULES for c in codes})}
"""Each rule code of a move's verdicts -> the checks that may say it."""


def judge_move(game: WormDerby, state: DerbyState, scene: Scene, player: str, limit: int,
               diff: tuple[list[int], list[int]] | None = None
               ) -> tuple[Judgement, MoveFacts | None]:
    """Judges the table after ``player``'s move on a roll allowing ``limit`` steps.

    Returns:
        The judgement (the first rule broken, else ``ok``) and, for a legal move, what it did.
    """
    move = MoveCheck(game, state, scene, player, limit, diff)
    for _codes, rule in MOVE_RULES:
        found = rule(move)
        if found is not None:
            return found, None
    facts = move.walked[1]
    assert facts is not None
    taken = move.made.steps
    how = "" if taken == limit or facts.eaten_player else \
        f" (as many as possible on a roll of {limit})"
    ate = (f" and ate an end coin of {possessive(facts.eaten_player)} worm"
           if facts.eaten_player else "")
    return judged(Rule.OK, f"{possessive(player)} worm moved {steps(taken)}{how}{ate}",
                  tuple(move.placed_idx), move.chain[-1]), facts


def step_judged(problem: Judgement, n: int, placed_index: int) -> Judgement:
    """The judgement of one step's problem (:func:`.steps.step_problem`): "the third coin
    ..."."""
    return judged(problem.rule, f"the {ordinal(n)} coin {problem.reason}",
                  (placed_index, *problem.pieces), problem.where)


def _walk(move: MoveCheck) -> tuple[Judgement | None, MoveFacts | None]:
    """Checks each coin laid in turn (see :func:`rule_each_step`)."""
    m, world, s, d = move.made, move.world, move.settings, move.game.d
    placed = [move.chain[i] for i in m.placed_at]
    placed_idx = move.placed_idx
    body = move.body
    walk = Walk()
    start = 0
    if m.hidden:
        reach = math.dist(body[-1], placed[0])
        most = (m.hidden + 1) * s.touch_factor * d
        if reach > most:
            return judged(Rule.TOUCH, f"the worm's new tail at {at(placed[0])} is {mm(reach)} "
                                      f"from its old head; {steps(m.steps)} reach at "
                                      f"most {mm(most)}", (placed_idx[0],), placed[0]), None
        hits = world.obstacles.overlapping(placed[0], d, s.overlap_tolerance_mm)
        if hits:
            lab = world.obstacles.labels[hits[0][1]]
            return judged(Rule.OVERLAP, f"the {ordinal(m.hidden + 1)} coin overlaps "
                                        f"{world.describe(lab)}", (placed_idx[0], lab),
                          placed[0]), None
        body = [placed[0]]
        start = 1
    for i in range(start, len(placed)):
        q = placed[i]
        n = m.hidden + i + 1
        result = world.check(body, q)
        if result.problem is not None:
            return step_judged(result.problem, n, placed_idx[i]), None
        coin = PlacedCoin(i, n, placed_idx[i], body[-1], q, i == len(placed) - 1, result.eaten)
        problem = move.game.judge_step(move, coin, walk)
        if problem is not None:
            return problem, None
        body = [*body[1:], q]
    return None, MoveFacts(tuple(move.chain), len(placed), walk.eaten_player, walk.eaten_end,
                           frozenset(walk.gates))


def most_steps(game: WormDerby, state: DerbyState, world: StepWorld, player: str,
               limit: int) -> int:
    """The most steps (up to ``limit``) the player's worm could make from either end that the
    variant lets it move from."""
    track = state.worm(player)
    best = 0
    for body in (list(track.coins_mm), list(track.coins_mm)[::-1]):
        if game.direction_problem(state, player, body) is not None:
            continue
        best = max(best, len(world.longest_move(body, limit)))
        if best >= limit:
            break
    return best
