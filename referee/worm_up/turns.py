"""Whose turn it is in Worm Up!: bids judged, the reveal, the end of a round, and why a worm
may not move now."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from referee.base import Step
from referee.words import and_list
from referee.worm_up.bidding import BidError, reveal
from referee.worm_up.rules import Rule
from referee.worm_up.state import Phase, WormUpState
from tabletop.events import Bid, Notice, Verdict

if TYPE_CHECKING:
    from referee.worm_up.game import WormUp


def judge_bid(game: WormUp, state: WormUpState, bid: Bid, seq: int) -> Step[WormUpState]:
    """A bid: refused (``bid``) outside the bidding or when the tile is not the player's to
    bid; the last bid of a round reveals them all (a notice) and starts the moves."""

    def refused(reason: str) -> Step[WormUpState]:
        return Step(state, (Verdict(seq, bid.player, False, Rule.BID.value, reason),))

    if bid.player not in game.players:
        return refused(f"{bid.player!r} is not playing (players: {', '.join(game.players)}).")
    if state.phase is Phase.SETUP:
        if state.setup_doubted:  # the table is in doubt, not the player at fault
            return Step(state, (Notice(seq, "The bid waits: the first table is in doubt, "
                                            "so the worms are not set up yet; fix the "
                                            "reading or accept the table.", "warning"),))
        return refused("No bids before the worms are set up behind the start line.")
    if state.phase is Phase.OVER:
        return refused(f"The race is over: {state.winner} has won.")
    if state.phase is Phase.MOVING:
        assert state.reveal is not None
        waiting = and_list(list(state.reveal.next_players(state.moved)))
        return refused(f"Bids for round {state.round + 1} open once every worm of round "
                       f"{state.round} has moved ({waiting} still to move).")
    try:
        state.rack.check(bid.player, bid.bid)
    except BidError as exc:
        return refused(f"{exc}.")
    changed = any(p == bid.player for p, _, _ in state.bids)
    bids = (*(b for b in state.bids if b[0] != bid.player),
            (bid.player, bid.bid, bid.number))
    state = replace(state, bids=bids)
    waiting_for = [p for p in game.players if p not in {b[0] for b in bids}]
    said = "changed their bid" if changed else "has bid"
    if waiting_for:
        return Step(state, (Verdict(seq, bid.player, True, Rule.OK.value,
                                    f"{bid.player} {said}; waiting for "
                                    f"{and_list(waiting_for)}."),))
    verdict = Verdict(seq, bid.player, True, Rule.OK.value,
                      f"{bid.player} {said}; all bids of round {state.round} are in.")
    shown = reveal({p: t for p, t, _ in bids},
                   {p: n for p, _, n in bids if n is not None}, state.rack)
    notice = Notice(seq, shown.summary(state.round), "info",
                    {"round": state.round, **shown.to_json()})
    state = replace(state, reveal=shown, rack=shown.rack_next, bids=(), moved=(),
                    post_moved=False)
    state = maybe_end_round(state)
    return Step(state, (verdict, notice))


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
