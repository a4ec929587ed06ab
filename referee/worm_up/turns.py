"""Whose turn it is in Worm Up!: bids judged, the reveal, the end of a round, and why a worm
may not move now."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from referee.base import Judgement, RuleBroken, Step
from referee.words import and_list
from referee.worm_up import geometry as geo
from referee.worm_up.bidding import BidError, reveal
from referee.worm_up.move_rules import changes
from referee.worm_up.rules import Rule
from referee.worm_up.setup_rules import setup_as_read
from referee.worm_up.state import Phase, Worm, WormUpState
from referee.worm_up.table import TableRead
from tabletop.events import Bid, Event, Notice, Verdict
from tabletop.scene import Point2

if TYPE_CHECKING:
    from referee.worm_up.game import WormUp


def judge_bid(game: WormUp, state: WormUpState, bid: Bid, seq: int) -> Step[WormUpState]:
    """A bid: refused (``bid``) outside the bidding or when the tile is not the player's to
    bid; the last bid of a round reveals them all (a notice) and starts the moves."""

    def refused(reason: str) -> Step[WormUpState]:
        return Step(state, (Verdict(seq, bid.player, False, Rule.BID.value, reason),))

    if bid.player not in game.players:
        return refused(f"{bid.player!r} is not playing (players: {', '.join(game.players)}).")
    early: tuple[Event, ...] = ()
    if state.phase is Phase.SETUP and state.setup_doubted:
        stood = setup_stands(game, state, seq)
        if stood is None:  # the table is in doubt, not the player at fault: kept for later
            try:
                state.rack.check(bid.player, bid.bid)
            except BidError as exc:
                return refused(f"{exc}.")
            bids = (*(b for b in state.bids if b[0] != bid.player),
                    (bid.player, bid.bid, bid.number))
            return Step(replace(state, bids=bids), (Notice(
                seq, "The bid waits: the first table is in doubt, so the worms are not set "
                     "up yet; fix the reading or accept the table.", "warning"),))
        state, early = stood
        if state.phase is Phase.MOVING:
            # the bids kept while the table was in doubt are revealed, and this player bids
            # again: that round's moves were made unseen, and are taken as played
            state, more = moves_stand(state, seq)
            early = (*early, *more)
    if state.phase is Phase.SETUP:
        if state.table is None:  # no table seen yet: the camera, not the player, is behind
            return Step(state, (Notice(seq, "The bid waits: no table has been seen yet, so "
                                            "the worms are not known to be set up; bid again "
                                            "once the table is seen.", "warning"),))
        return refused("No bids before the worms are set up behind the start line.")
    if state.phase is Phase.OVER:
        return refused(f"The race is over: {state.winner} has won.")
    if state.phase is Phase.MOVING and state.doubted:
        state, early = moves_stand(state, seq)
    if state.phase is Phase.MOVING:
        assert state.reveal is not None
        waiting = and_list(list(state.reveal.next_players(state.moved)))
        return refused(f"Bids for round {state.round + 1} open once every worm of round "
                       f"{state.round} has moved ({waiting} still to move).")
    try:
        state.rack.check(bid.player, bid.bid)
    except BidError as exc:
        return Step(state, (*early, Verdict(seq, bid.player, False, Rule.BID.value,
                                            f"{exc}.")))
    changed = any(p == bid.player for p, _, _ in state.bids)
    bids = (*(b for b in state.bids if b[0] != bid.player),
            (bid.player, bid.bid, bid.number))
    state = replace(state, bids=bids, before_move=None)  # a move is taken back before bids
    waiting_for = [p for p in game.players if p not in {b[0] for b in bids}]
    said = "changed their bid" if changed else "has bid"
    if waiting_for:
        return Step(state, (*early, Verdict(seq, bid.player, True, Rule.OK.value,
                                            f"{bid.player} {said}; waiting for "
                                            f"{and_list(waiting_for)}.")))
    verdict = Verdict(seq, bid.player, True, Rule.OK.value,
                      f"{bid.player} {said}; all bids of round {state.round} are in.")
    state, shown = revealed(state, seq)
    return Step(state, (*early, verdict, *shown))


def moves_stand(state: WormUpState, seq: int) -> tuple[WormUpState, tuple[Event, ...]]:
    """A bid while the last table is in doubt and worms still have to move: the players went
    on, so those worms are taken as moved (each placed where the next table reads it whole)
    and the next round's bidding opens (a warning notice says so). So is a worm whose place
    this round was never proved (``placed_late``: its move taken as made where a reading
    showed it, or placed from a table after the reveal): a table in doubt since may show it
    moved, unjudged (misread sim 159306: yellow's move taken as made before it was made, its
    real move then doubted; the next round judged it from where it no longer lay)."""
    assert state.reveal is not None
    left = [m.player for m in state.reveal.order if m.player not in state.moved]
    steps = {m.player: m.number for m in state.reveal.order
             if m.player in left and m.number is not None and m.player not in state.unsure}
    new = replace(state, moved=(*state.moved, *left), doubted=False,
                  unsure=tuple(dict.fromkeys((*state.unsure, *left, *state.placed_late))),
                  unsure_steps=(*((p, k) for p, k in state.unsure_steps if p not in left),
                                *steps.items()))
    new = maybe_end_round(new)
    return new, (Notice(seq, f"The last table was in doubt and was not fixed; the players "
                             f"went on, so {and_list(left)} {'is' if len(left) == 1 else 'are'}"
                             f" taken as moved and read where the next table shows "
                             f"{'it' if len(left) == 1 else 'them'}.", "warning"),)


def revealed(state: WormUpState, seq: int) -> tuple[WormUpState, tuple[Event, ...]]:
    """Every bid of the round is in: the reveal (a notice) and the moves begin."""
    bids = state.bids
    shown = reveal({p: t for p, t, _ in bids},
                   {p: n for p, _, n in bids if n is not None}, state.rack)
    notice = Notice(seq, shown.summary(state.round), "info",
                    {"round": state.round, **shown.to_json()})
    state = replace(state, reveal=shown, rack=shown.rack_next, bids=(), moved=(),
                    post_moved=False, placed_late=())
    return maybe_end_round(state), (notice,)


def bids_carried(game: WormUp, before: WormUpState, started: WormUpState, seq: int
                 ) -> tuple[WormUpState, tuple[Event, ...]]:
    """The race has just started (``started``) from a first table in doubt: the bids made
    while it was (``before.bids``) stand, and once all are in they are revealed."""
    if not before.bids:
        return started, ()
    state = replace(started, bids=before.bids)
    if any(p not in {b[0] for b in before.bids} for p in game.players):
        return state, ()
    return revealed(state, seq)


def setup_stands(game: WormUp, state: WormUpState, seq: int
                 ) -> tuple[WormUpState, tuple[Event, ...]] | None:
    """A bid while the first table is in doubt: the players went on, so that table stands
    as read when its worms are read whole (:func:`setup_as_read`; a warning notice says so);
    None when it cannot (the bid waits)."""
    scene = state.doubted_setup
    if scene is None:
        return None
    try:
        started = setup_as_read(game, scene)
    except RuleBroken:
        return None
    seen = sum(1 for p in scene.pieces if p.kind == "post")
    started = replace(one_way(started), table=scene, phase=Phase.BIDDING)
    started, shown = bids_carried(game, state, started, seq)
    finish = "" if started.finish_posts_mm is not None else \
        "; the finish line is taken where the finish posts are first seen"
    return started, (Notice(seq, f"The first table was in doubt and was not fixed; the "
                                 f"players went on, so it stands as read ({seen} of the 4 "
                                 f"posts seen{finish}).", "warning"), *shown)


def one_way(state: WormUpState) -> WormUpState:
    """``state`` with its worms pointing one way when they do not (153234: a first table read
    after the bids, with posts misread, gave two worms' heads at their tails): worms race one
    way, so each is turned to point as the first does, and which way that is is told by the
    first move (``heads_unknown``).

    >>> from referee.worm_up.bidding import Rack
    >>> a, b = Worm("red", ((0.0, 0.0), (0.0, 20.0))), Worm("blue", ((50.0, 20.0), (50.0, 0.0)))
    >>> new = one_way(WormUpState(table=None, rack=Rack.fresh(("red", "blue")), worms=(a, b)))
    >>> new.worm("blue").centres_mm, new.heads_unknown
    (((50.0, 0.0), (50.0, 20.0)), True)
    """
    if not state.worms:
        return state

    def way(w: Worm) -> tuple[float, float]:
        return w.head_mm[0] - w.tail_mm[0], w.head_mm[1] - w.tail_mm[1]

    ux, uy = way(state.worms[0])
    if all(ux * way(w)[0] + uy * way(w)[1] >= 0 for w in state.worms):
        return state
    return replace(state, heads_unknown=True, worms=tuple(
        w if ux * way(w)[0] + uy * way(w)[1] >= 0 else Worm(w.player, w.centres_mm[::-1])
        for w in state.worms))


def maybe_end_round(state: WormUpState) -> WormUpState:
    """Moving while a revealed worm still has to move, else the next round's bidding."""
    assert state.reveal is not None
    if state.reveal.next_players(state.moved):
        return replace(state, phase=Phase.MOVING)
    return replace(state, phase=Phase.BIDDING, round=state.round + 1, moved=())


def not_your_turn(state: WormUpState, player: str) -> str:
    """Why ``player``'s worm may not move now, in one sentence."""
    rv = state.reveal
    assert rv is not None
    nxt = and_list(list(rv.next_players(state.moved)))
    if player in rv.cancelled:
        return (f"{player}'s bid ({rv.bid_of(player)}) was cancelled, so {player}'s worm "
                f"does not move this round.")
    if player in state.moved:
        return f"{player} has already moved this round; it is {nxt}'s move."
    if rv.mover(player) is None:
        return f"{player}'s X has no free number, so {player}'s worm does not move."
    m = rv.mover(player)
    assert m is not None
    return f"It is {nxt}'s move before {m.label()}."


@dataclass(frozen=True)
class TurnCheck:
    """A later table as the turn rules see it: whose worms changed, and a finish post moved.

    Attributes:
        state: The state before the table.
        read: The table read.
        changed: The players whose worm changed, in player order (one at least).
        moved_post: Where a finish post moved to (None: none moved).
    """

    state: WormUpState
    read: TableRead
    changed: tuple[str, ...]
    moved_post: Point2 | None

    @property
    def movers(self) -> list[str]:
        """The changed worms that may move now (asked once the bids are revealed)."""
        assert self.state.reveal is not None
        nxt = self.state.reveal.next_players(self.state.moved)
        return [p for p in self.changed if p in nxt]

    def indices(self, *players: str) -> tuple[int, ...]:
        """The scene indices of these players' segments."""
        return tuple(i for p in players for i in self.read.indices(p))


TurnRule = Callable[[TurnCheck], Judgement | None]


def rule_after_the_reveal(check: TurnCheck) -> Judgement | None:
    """``turn``: no worm moves before the round's bids are revealed."""
    state, changed = check.state, check.changed
    if state.phase is not Phase.MOVING:
        return Judgement(Rule.TURN, f"No worm may move before the bids of round {state.round} "
                                    f"are revealed; {and_list(changed)} moved.", changed[0],
                         check.indices(*changed))
    return None


def rule_one_worm_at_a_time(check: TurnCheck) -> Judgement | None:
    """``turn``: one worm moves at a time; the foul is the worm's that may not move now (a
    move on someone else's turn is that mover's foul)."""
    changed = check.changed
    if len(changed) > 1:
        movers = check.movers
        out_of_turn = [p for p in changed if p not in movers[:1]]
        who = out_of_turn[0]
        found = Judgement(Rule.TURN, f"Only one worm may move at a time, but "
                                     f"{and_list(changed)} moved.", who,
                          check.indices(*changed))
        late = [p for p in changed if p in check.state.placed_late]
        if check.state.doubted and late:
            # after a table in doubt, a worm placed from a reading this round may have moved
            # in that table, on its own (misread sim 159306): not proved at once
            return replace(found, doubt=f"{and_list(late)}'s worm was placed where a table "
                                        f"read it after the bids, and the last table was in "
                                        f"doubt: did they move one at a time? Fix the reading "
                                        f"or accept the table")
        return found
    return None


def rule_in_its_turn(check: TurnCheck) -> Judgement | None:
    """``order`` (a worm moving before its place in the move order) or ``turn`` (a worm that
    does not move this round, or has moved).

    The foul must be provable from what was read. An ``order`` foul says a worm due before
    the mover has not moved: that holds when each such worm (``next_players``) is where a
    judged move or a table read before this round's reveal put it, unchanged since. A worm
    placed from a reading made after the reveal (``placed_late``: taken as moved and placed
    where a later table read it) may lie where its move of this round already took it, the
    move unseen (138617: blue, taken as moved in round 2, placed from the first table of
    round 3, which showed its move of 4; yellow's move was then an ``order`` false alarm).
    So is a ``turn`` foul for moving again when the worm's move was taken as made where a
    reading in doubt showed it (it may have been a move half made). Either way it is a doubt
    (nobody faulted), never a foul."""
    if check.movers:
        return None
    state, player = check.state, check.changed[0]
    assert state.reveal is not None
    pending = state.reveal.mover(player) is not None and player not in state.moved
    found = Judgement(Rule.ORDER if pending else Rule.TURN, not_your_turn(state, player),
                      player, check.indices(player))
    due = state.reveal.next_players(state.moved)
    unproved = [p for p in due if p in state.placed_late] if pending else \
        [player] if player in state.moved and player in state.placed_late else []
    if unproved:
        return replace(found, doubt=f"{and_list(unproved)}'s worm was placed where a table "
                                    f"read it after the bids, so its move may have been made "
                                    f"unseen. Fix the reading or accept the table")
    return found


def rule_post_only_for_x(check: TurnCheck) -> Judgement | None:
    """``post``: only the X player moves a finish post with a worm."""
    state, player = check.state, check.changed[0]
    x_player = state.reveal.x_player if state.reveal is not None else None
    if check.moved_post is not None and player != x_player:
        return Judgement(Rule.POST, f"A finish post moved with {player}'s worm; only the X "
                                    f"player may move a finish post.", player,
                         tuple(i for i, _ in check.read.posts))
    return None


TURN_RULES: tuple[TurnRule, ...] = (
    rule_after_the_reveal, rule_one_worm_at_a_time, rule_in_its_turn, rule_post_only_for_x)
"""The rules of whose worm may move, in the order they are asked."""


def next_in_order(state: WormUpState, changed: list[str]) -> list[str]:
    """``changed`` in move order when they are exactly the next worms to move, else []."""
    if state.phase is not Phase.MOVING or state.reveal is None:
        return []
    left = [m.player for m in state.reveal.order if m.player not in state.moved]
    first = left[:len(changed)]
    return first if set(first) == set(changed) else []


def the_mover(check: TurnCheck) -> str:
    """The one player whose worm moved, in turn (:data:`TURN_RULES`).

    Raises:
        RuleBroken: the first turn rule broken.
    """
    for rule in TURN_RULES:
        found = rule(check)
        if found is not None:
            raise RuleBroken(found)
    return check.changed[0]


def out_of_turn(game: WormUp, state: WormUpState, read: TableRead) -> None:
    """A table with a worm not read whole (a doubt) may still show, for sure, a worm moving
    out of its turn: each worm short of its segments changed, and has at least two segments
    read surely in new places (more than a segment's width from every place it lay). Then
    the turn rules are asked of it as of a whole table; otherwise nothing is said here.

    Raises:
        RuleBroken: ``turn`` or ``order`` against a worm seen moving out of its turn.
    """
    if state.phase not in (Phase.BIDDING, Phase.MOVING) or state.unsure:
        return
    s = game.settings
    short = [p for p in game.players if len(read.segments[p]) != s.segments]
    if not short:
        return
    for p in short:
        old = state.worm(p).centres_mm
        new = [i for i, c in read.segments[p] if not read.unsure(i, s.misread_confidence)
               and all(geo.dist(c, o) > game.diameter_mm for o in old)]
        if len(new) < 2:
            return
    try:
        _still, changed, moved_post = changes(game, state, read)
        if not set(short) <= set(changed):
            return
        if state.doubted and moved_post is None and next_in_order(state, changed):
            return  # after a table in doubt: the next worms in the move order, each in turn
        the_mover(TurnCheck(state, read, tuple(changed), moved_post))
    except RuleBroken as broken:
        j = broken.judgement
        if not j.doubt and j.rule in (Rule.TURN, Rule.ORDER) and j.player in short:
            raise
