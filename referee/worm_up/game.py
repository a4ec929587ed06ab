"""The Worm Up! referee: bids revealed at once, worms moved tail to head, the finish line.

A record looks like this: a setup (players are segment colours, 3 to 5), the first scene (the
worms behind the start line), then each round a ``bid`` event per player and, once they are
revealed (a :class:`tabletop.events.Notice` with the reveal as ``data``), one scene per moving
worm in move order. The referee checks each scene:

- ``pieces``: every worm has its 7 segments and both finish posts are on the table;
- ``turn``: only a worm whose bid succeeded moves, once a round, after the reveal, one at a
  time; ``order``: it moves in its place in the move order (lowest bid first);
- ``shape``: the worm is still one chain of touching segments (never split);
- ``tail``: the moved segments came from the tail and were laid, one after the other, in front
  of the head;
- ``steps``: exactly as many segments as the bid (an X: a number nobody bid);
- ``touch``: the worm touches no other worm;
- ``post``: after a successful X, one finish post stays put and the other moves, the distance
  between them unchanged (the strip stays attached); at no other time may a finish post move;
- the finish: the first worm whose head touches the finish line (the strip between the finish
  posts, its width counted) wins (a ``finish`` and a ``winner`` event).

Bids: ``bid`` when a bid breaks the rules (a tile sitting out, a bid while worms still have to
move, before the setup). A legal bid gets a legal verdict that does not say what was bid.

Tolerances are named settings (:class:`WormUpSettings`), each overridable by a setup option of
the same name. Where vision noise makes a call uncertain, the player gets the benefit of the
doubt: segments of one worm up to ``chain_gap_mm`` apart still touch, segments of two worms
touch only within ``touch_gap_mm``.

Decisions where the rule sheets are silent:

- An X with no free number (five players bid 4, 5, 6, 7 and X) is not cancelled and its tile
  sits out, but the worm cannot advance; the X player may still move a finish post.
- The post move after an X is optional and allowed once, from the reveal until the next
  reveal, on its own in a scene or in the same scene as the X player's worm move. A worm
  whose head the moved finish line touches finishes.
- ``accept`` (the table as it is) counts a changed worm as having made its move when that
  player is among those who may move next.
- Scenes after the winner are not judged.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import fields, replace
from typing import Any

from referee.base import Game, RuleBroken, Step, still_pending
from referee.pending import Pending, SettlesFouls
from referee.worm_up import geometry as geo
from referee.worm_up.bidding import Rack, SecretBids
from referee.worm_up.colour_misread import recolour_first, recolour_misread
from referee.worm_up.end_short import (
    EndGuess,
    Line,
    end_guesses,
    other_ends,
    settle_guesses,
)
from referee.worm_up.move_rules import (
    changes,
    finisher,
    head_on_line,
    judge_move,
    post_move,
    posts_kept,
)
from referee.worm_up.one_short import fill_holes
from referee.worm_up.post_layout import ALL_POSTS
from referee.worm_up.rules import MISREAD, Rule, foul
from referee.worm_up.settings import WormUpSettings
from referee.worm_up.setup_rules import (
    POSTS_UNSURE,
    finish_ahead,
    first_table,
    heads_spread_mm,
    post_misread_told,
    posts_not_seen,
    read_setup,
    set_up_in_line,
    setup_as_read,
)
from referee.worm_up.short_counts import (
    MOST_MISSING,
    chain_can_hold,
    completion,
    counts_possible,
)
from referee.worm_up.state import Phase, Worm, WormUpState
from referee.worm_up.still_worms import fill_still_worms
from referee.worm_up.table import (
    Status,
    TableRead,
    chain_of,
    check_counts,
    read_table,
    table_status,
)
from referee.worm_up.turns import (
    TurnCheck,
    bids_carried,
    judge_bid,
    maybe_end_round,
    next_in_order,
    out_of_turn,
    the_mover,
)
from referee.worm_up.two_readings import agree, completed
from referee.worm_up.worm_in_doubt import depends_on, due_before, proved_still, put_back
from tabletop.errors import RecordFormatError
from tabletop.events import (
    Bid,
    Doubt,
    Event,
    Finish,
    Notice,
    SceneSeen,
    Setup,
    Verdict,
    Winner,
)
from tabletop.scene import Piece, Point2, Scene

MOST_WAYS = 12
"""Worms read short with more ways (counts, one per worm, multiplied) than this are not judged
through them (a doubt)."""

MOST_UNSURE = 3
"""A worm read short with more segments read unsurely than this gives no foul through its
counts (too many ways some of them are phantoms)."""


MOVED_AGAIN = 2
"""Segments of a worm read where none of it lay after its move in doubt that show it moved
again (one may be a segment read off)."""


class WormUp(SettlesFouls[WormUpState], Game[WormUpState]):
    """Worm Up! (Alex Randolph): 3 to 5 worms race to the finish line by secret bids."""

    name = "worm-up"
    aliases = ("wormup", "worm_up")
    piece_kinds = ("segment", "post")
    option_names = frozenset({"sizes", *(f.name for f in fields(WormUpSettings))})

    def __init__(self, setup: Setup) -> None:
        super().__init__(setup)
        self.settings = WormUpSettings.from_options(setup.options)
        colours = tuple(self.pieces.segment_colours)
        bad = [p for p in self.players if p not in colours]
        if bad:
            raise RecordFormatError(
                f"worm-up: players are segment colours ({', '.join(colours)}), not {bad[0]!r}")
        if not 3 <= len(self.players) <= 5:
            raise RecordFormatError(
                f"worm-up: 3 to 5 players, not {len(self.players)}")
        self.diameter_mm: float = self.pieces.segment_diameter_mm
        self.radius_mm: float = self.diameter_mm / 2.0

    # ------------------------------------------------------------------ the Game interface

    def initial_state(self) -> WormUpState:
        """Before the first scene: every tile available."""
        return WormUpState(table=None, rack=Rack.fresh(self.players))

    def step(self, state: WormUpState, event: Event, seq: int) -> Step[WormUpState]:
        """Judges a bid or a scene (other events are not part of Worm Up!); while an illegal
        verdict is not put right, another player's foul is not judged against it again and
        again: the table is told once (:meth:`settle`)."""
        step = self._judge(state, event, seq)
        if isinstance(event, SceneSeen):
            step = self._read_again(state, event, seq, step)
            judged = {o.player for o in step.outputs if isinstance(o, Verdict)}
            if judged & set(step.state.count_doubted):  # its own move read whole: asked
                # about again if misread later
                step = Step(replace(step.state, count_doubted=tuple(
                    p for p in step.state.count_doubted if p not in judged)), step.outputs)
        return self.settle(state, step, seq, event, refused=isinstance(event, Bid))

    def _read_again(self, state: WormUpState, event: SceneSeen, seq: int,
                    step: Step[WormUpState]) -> Step[WormUpState]:
        """A reading in doubt completed: after a reading in doubt of the same table, from it
        (:func:`referee.worm_up.two_readings.completed`: what one did not see, the other
        did); else a worm one short with a hole of one segment, there
        (:func:`referee.worm_up.one_short.fill_holes`); else worms that did not move (what is
        seen of them lies where they lay) put back whole. The completed reading is judged when
        it says less in doubt; a foul only from two readings that agree (every piece seen in
        one of them) of a move, never from a guess nor of the setup; then the worm whose move
        is next read one short is judged at every place its segment can lie
        (:meth:`_short_end_agreed`); a reading still in doubt is kept for the next."""
        doubts = sum(isinstance(o, Doubt) for o in step.outputs)
        if not doubts:
            again = self._moved_again(state, event, seq, step)
            if again is not None:
                return again
            return step if step.state.doubted_reading is None else \
                Step(replace(step.state, doubted_reading=None), step.outputs)
        counts = {p: self.settings.segments for p in self.players}
        earlier = state.doubted_reading
        tries = [] if event.scene.hand else [
            None if earlier is None else completed(earlier, event.scene, counts, ALL_POSTS,
                                                   self.settings.still_mm),
            fill_holes(event.scene, counts, self.diameter_mm, self.settings.chain_gap_mm),
            self._unmoved_filled(state, event.scene)]
        for k, merged in enumerate(tries):
            if merged is None:
                continue
            trial = self._judge(state, replace(event, scene=merged), seq)
            # two readings that agree show every piece: complete enough for a foul of a move;
            # not for one of the setup, where nothing moved to tell a phantom in one reading
            # (a check of a cloth of the worm's colour) from a segment the other missed
            fouls = (k > 0 or state.phase is Phase.SETUP) and any(
                isinstance(o, Verdict) and not o.legal for o in trial.outputs)
            if k == 2 and state.phase is Phase.MOVING and self._still_unproved(
                    state, event.scene) and not any(isinstance(o, Verdict)
                                                    for o in trial.outputs):
                continue  # nothing judged: no proof a worm put back whole did not move
                # (151651: yellow moved before red, read 0 of 7: the foul was lost)
            if sum(isinstance(o, Doubt) for o in trial.outputs) < doubts and not fouls:
                return Step(replace(trial.state, doubted_reading=None), trial.outputs)
        if state.phase is Phase.SETUP and not event.scene.hand:
            bases = [event.scene, *(t for t in tries[:1] if t is not None)]
            guessed = self._ends_guessed(state, event, seq, doubts, bases)
            if guessed is not None:
                return guessed
        elif not event.scene.hand:
            agreed = self._short_proved(state, event, seq)
            if agreed is not None:
                return Step(replace(agreed.state, doubted_reading=None), agreed.outputs)
        return Step(replace(step.state, doubted_reading=event.scene), step.outputs)

    def _moved_again(self, state: WormUpState, event: SceneSeen, seq: int,
                     step: Step[WormUpState]) -> Step[WormUpState] | None:
        """A worm whose own move was read in doubt (read short: the last reading in doubt),
        read whole now further on and judged a foul of one move from where it lay: the
        reading in doubt shows it stopped between, so this is a second move, out of its turn
        (issue 13: a worm in doubt since its own move that later moves out of turn is that
        mover's ``turn`` foul). Called when, for every count the reading in doubt allows
        (:meth:`_counts`, its segments not seen laid as :func:`completion` lays them), this
        reading shows the worm moved on from there (:data:`MOVED_AGAIN` segments where none
        of it lay then), and from the count that was legal (its move taken as made) this
        reading is judged ``turn``. None otherwise."""
        earlier = state.doubted_reading
        fouls = [o for o in step.outputs if isinstance(o, Verdict) and not o.legal]
        if earlier is None or event.scene.hand or len(fouls) != 1 or \
                state.phase is not Phase.MOVING or state.reveal is None:
            return None
        mover = fouls[0].player
        n, s, d = self.settings.segments, self.settings, self.diameter_mm
        scene = fill_still_worms(state.worms, earlier, d)
        read = read_table(self, scene)
        if mover is None or [p for p in self.players if len(read.segments[p]) != n] != [mover] \
                or mover in state.unsure or mover in dict(state.guessed):
            return None
        old, seen = state.worm(mover).centres_mm, read.centres(mover)
        others = [c for q in self.players if q != mover for c in read.centres(q)] + \
            [c for _, c in read.posts]
        now = read_table(self, event.scene).centres(mover)
        made: Step[WormUpState] | None = None
        for j in self._counts(old, seen):
            added = completion(old, seen, j, s.still_mm, d, s.chain_gap_mm, others)
            if added is None:
                return None
            there = (*seen, *added)
            if sum(all(geo.dist(c, o) > s.still_mm for o in there) for c in now) < MOVED_AGAIN:
                return None  # it may lie where this count left it: no second move shown
            trial = self._judge(state, replace(event, scene=replace(scene, pieces=(
                *scene.pieces, *(Piece("segment", x, y, color=mover) for x, y in added)))),
                seq)
            if made is None and trial.outputs and all(
                    isinstance(o, Verdict) and o.legal and o.player == mover
                    for o in trial.outputs):
                made = trial
        if made is None:
            return None
        again = self._judge(made.state, event, seq)
        said = [o for o in again.outputs if isinstance(o, Verdict | Doubt)]
        if len(said) != 1 or not isinstance(said[0], Verdict) or said[0].legal or \
                said[0].rule != Rule.TURN or said[0].player != mover:
            return None
        return Step(replace(again.state, doubted_reading=None), again.outputs)

    def _short_proved(self, state: WormUpState, event: SceneSeen, seq: int
                      ) -> Step[WormUpState] | None:
        """A later table with one or two worms read one or two segments short, judged under
        every count each may have moved (:mod:`referee.worm_up.short_counts`): a count not
        ruled out is judged with one way its segments not seen lie; the verdict when every
        count gives the same verdicts (player, legality, rule) and no doubt, else None (the
        doubt stands).

        Why a verdict so given holds wherever the segments not seen lie. Premises (any
        failing: None): segments do not vanish, so exactly ``n - seen`` of each worm short
        are not seen, at most :data:`MOST_MISSING`; every other worm is read whole (a worm
        read 0 of 7 is never taken as still); the worm short is where the state says (not
        taken as moved unseen, ``unsure``, nor completed by a guess at the start,
        ``guessed``); no segment of it is read off where it lay (``still_mm`` to a diameter
        less ``touch_gap_mm``). Then the counts a move laid tail to head can have are those
        of :func:`~referee.worm_up.short_counts.counts_possible`, whatever the segments not
        seen are, and a move not so laid is a foul of its own; so a foul given under every
        count is a foul. A segment read unsurely may be a shadow: a foul further needs that
        leaving any of them out adds no count (:meth:`_phantoms_add_no_count`). A legal
        verdict needs every segment seen read surely, every count legal (a count no chain
        can hold is a split worm, not taken as the table's lie: the benefit of the doubt),
        and each new segment not seen clear, wherever it can lie, of every other worm and of
        the finish line (:meth:`_short_legal`)."""
        if not state.worms or state.phase is not Phase.MOVING or state.reveal is None:
            return None
        n, s, d = self.settings.segments, self.settings, self.diameter_mm
        scene = fill_still_worms(state.worms, event.scene, d)
        read = read_table(self, scene)
        short = [p for p in self.players if len(read.segments[p]) != n]
        if not short or len(short) > 2:
            return None
        near = (s.still_mm, d - s.touch_gap_mm)
        per: list[list[tuple[str, int, tuple[Point2, ...]]]] = []
        for p in short:
            old, seen = state.worm(p).centres_mm, read.centres(p)
            if not 1 <= n - len(seen) <= MOST_MISSING or p in state.unsure or \
                    p in dict(state.guessed) or any(
                    near[0] < min(geo.dist(c, o) for o in old) < near[1] for c in seen):
                return None
            others = [c for q in self.players if q != p for c in read.centres(q)] + \
                [c for _, c in read.posts]
            ways = []
            for j in self._counts(old, seen):
                added = completion(old, seen, j, s.still_mm, d, s.chain_gap_mm, others)
                if added is None:
                    return None  # a count no way was found for: not proved
                ways.append((p, j, added))
            if not ways:
                return None
            per.append(ways)
        combos = list(itertools.product(*per))
        if len(combos) > MOST_WAYS:
            return None
        trials: list[Step[WormUpState]] = []
        for combo in combos:
            filled = replace(scene, pieces=(*scene.pieces, *(
                Piece("segment", x, y, color=p) for p, _, added in combo for x, y in added)))
            trial = self._judge(state, replace(event, scene=filled), seq)
            if any(isinstance(o, Doubt) for o in trial.outputs) or \
                    not any(isinstance(o, Verdict) for o in trial.outputs):
                return None
            trials.append(trial)
        said = {tuple((v.player, v.legal, v.rule) for v in t.outputs if isinstance(v, Verdict))
                for t in trials}
        if len(said) != 1:
            return None
        first = trials[0]
        whose = " and ".join(f"{p}'s" for p in short)
        unsure = {p: [k for k, i in enumerate(read.indices(p))
                      if read.unsure(i, s.misread_confidence)] for p in short}
        if any(not legal for _, legal, _ in next(iter(said))):
            if not all(self._phantoms_add_no_count(state.worm(p).centres_mm, read.centres(p),
                                                   unsure[p]) for p in short):
                return None
            note = (f" Segments of {whose} worm are not seen; wherever they lie, the move "
                    f"breaks this rule.")
            return Step(first.state, tuple(replace(o, reason=o.reason + note)
                                           if isinstance(o, Verdict) and not o.legal else o
                                           for o in first.outputs))
        if any(unsure.values()):
            return None  # a legal verdict needs every segment seen of them read surely
        return self._short_legal(state, read, combos, trials)

    def _counts(self, old: tuple[Point2, ...], seen: list[Point2]) -> list[int]:
        """The counts a worm that lay at ``old``, read as ``seen``, may have moved tail to
        head that a chain can hold (:mod:`referee.worm_up.short_counts`)."""
        s, d = self.settings, self.diameter_mm
        return [j for j in counts_possible(old, seen, s.still_mm)
                if chain_can_hold(old, seen, j, s.still_mm, d, s.chain_gap_mm)]

    def _phantoms_add_no_count(self, old: tuple[Point2, ...], seen: list[Point2],
                               unsure: list[int]) -> bool:
        """Whether the segments of a worm read unsurely (``unsure``: indices into ``seen``),
        any of them a phantom (a shadow read as a segment), leave no count beyond those of
        ``seen`` as read (a foul judged under every count read so holds then too). False with
        more than :data:`MOST_UNSURE` of them."""
        if len(unsure) > MOST_UNSURE:
            return False
        counts = set(self._counts(old, seen))
        return all(set(self._counts(old, [c for k, c in enumerate(seen) if k not in drop]))
                   <= counts for r in range(1, len(unsure) + 1)
                   for drop in itertools.combinations(unsure, r))

    def _short_legal(self, state: WormUpState, read: TableRead,
                     combos: list[tuple[tuple[str, int, tuple[Point2, ...]], ...]],
                     trials: list[Step[WormUpState]]) -> Step[WormUpState] | None:
        """Every count of the worms short judged legal (:meth:`_short_proved`): the verdict
        when no new segment not seen may touch another worm or the finish line, each worm
        whose place is not known to a segment's taken as moved (``unsure``); else None."""
        s, d = self.settings, self.diameter_mm
        first = trials[0]
        if any(t.state.reveal != first.state.reveal or t.state.winner != first.state.winner
               for t in trials):
            return None
        new = first.state
        for k, p in enumerate(p for p, _, _ in combos[0]):
            counts = {combo[k][1] for combo in combos}
            ends = [c for combo in combos for c in combo[k][2]
                    if min(geo.dist(c, o) for o in state.worm(p).centres_mm) > s.still_mm]
            others = [c for q in self.players if q != p for c in read.centres(q)]
            known = [*read.centres(p), *(c for combo in combos for c in combo[k][2]
                                         if c not in ends)]
            zone = None if new.finish_posts_mm is None else geo.finish_zone(
                *new.finish_posts_mm, s.strip_width_mm, self.pieces.post_diameter_mm)
            for c in ends:  # it lies within a step or two of a segment whose place is known
                nb = min(known, key=lambda q: geo.dist(q, c))
                reach = max(1, round(geo.dist(nb, c) / d)) * (d + s.chain_gap_mm)
                if any(geo.dist(nb, q) <= reach + d + s.touch_gap_mm for q in others):
                    return None  # it may touch another worm
                if zone is not None and geo.touches_zone(zone, nb, self.radius_mm + reach):
                    return None  # it may touch the finish line
            if not ends and len(counts) == 1:
                continue
            steps = next(iter(counts)) if len(counts) == 1 else None
            new = replace(new, worms=tuple(state.worm(p) if w.player == p else w
                                           for w in new.worms),
                          unsure=(*(q for q in new.unsure if q != p), p),
                          unsure_steps=(*(x for x in new.unsure_steps if x[0] != p),
                                        *(() if steps is None else ((p, steps),))),
                          before_move=None)
        return Step(new, first.outputs)

    def _ends_guessed(self, state: WormUpState, event: SceneSeen, seq: int, doubts: int,
                      bases: list[Scene]) -> Step[WormUpState] | None:
        """A first table with worms read short in every reading, their segments seen on one
        line (:mod:`referee.worm_up.end_short`): those not seen taken on that line where the
        worms are set up by the rules with their heads most level (a tie: the heads as
        read); the setup judged, and one doubt per worm says where. None when no way sets
        the worms up (the table stays in doubt; never a foul from a guess)."""
        counts = {p: self.settings.segments for p in self.players}
        best: tuple[tuple[float, int], Step[WormUpState], EndGuess] | None = None
        set_up: list[WormUpState] = []  # every way under which the worms are set up
        for base in bases:
            for guess in end_guesses(base, counts, self.diameter_mm,
                                     self.settings.straight_mm):
                trial = self._judge(state, replace(event, scene=guess.scene), seq)
                verdicts = [o for o in trial.outputs if isinstance(o, Verdict)]
                # a post not seen beside the verdict, with a line of posts standing, is told,
                # not in the way (156617: red's tail and a start post not seen, the first table
                # stood in doubt all game); with neither line (151617: 1 post of 4 seen) the
                # worms are not known well enough to guess where a worm's segment lies
                told = trial.state.start_posts_mm is not None or \
                    trial.state.finish_posts_mm is not None
                if not verdicts or not all(v.legal for v in verdicts) or sum(
                        isinstance(o, Doubt) and (o.player is not None or not told)
                        for o in trial.outputs) >= doubts:
                    continue
                set_up.append(trial.state)
                worms = {w.player: w for w in trial.state.worms}
                at_head = sum(any(geo.dist(worms[p].head_mm, c) < 1e-6 for c in new)
                              for p, new in guess.added)
                key = (round(heads_spread_mm(trial.state.worms) / 2.0), at_head)
                if best is None or key < best[0]:
                    best = (key, trial, guess)
        if best is None:
            return None
        _, trial, guess = best
        n = self.settings.segments
        said = []
        for p, new in guess.added:
            places = ", ".join(f"({x:.0f}, {y:.0f})" for x, y in new)
            said.append(Doubt(seq, p, tuple(i for i, q in enumerate(event.scene.pieces)
                                            if q.kind == "segment" and q.color == p), new[0],
                              f"{p} has {n - len(new)} of its {n} segments seen: the "
                              f"{'one' if len(new) == 1 else len(new)} not seen "
                              f"{'is' if len(new) == 1 else 'are'} taken on its line at "
                              f"{places}: hidden there? The race goes on; fix the reading "
                              f"if not."))
        return Step(replace(trial.state, doubted_reading=None,
                            guessed=self._set_up_ways(guess.others, set_up)),
                    (*trial.outputs, *said))

    def _set_up_ways(self, others: tuple[tuple[str, tuple[Line, ...]], ...],
                     set_up: list[WormUpState]) -> tuple[tuple[str, tuple[Line, ...]], ...]:
        """Of the other ways a worm read short at the start could lie, those under which the
        worms are set up by the rules (the table was judged set up: a way that puts a head
        over the start line is not how it lies); worms with none left are settled."""
        kept = []
        for player, lines in others:
            worms = [s.worm(player).centres_mm for s in set_up]
            ways = tuple(line for line in lines if any(
                len(w) == len(line) and all(min(geo.dist(c, d) for d in w) < 1.0 for c in line)
                for w in worms))
            if ways:
                kept.append((player, ways))
        return tuple(kept)

    def new_foul(self, state: WormUpState, verdict: Verdict, pending: Pending,
                 refused: bool) -> bool:
        """While a foul is pending (:mod:`referee.pending`), no other foul is judged against it
        (the same rule broken again by the same player, a worm moved out of turn beside it,
        another player's foul or any bid refused: the players went on regardless). A foul of
        another rule by the player whose foul is pending, in a move of its own, is judged; so
        is anything during the setup."""
        return state.phase is Phase.SETUP or (
            verdict.player == pending.player and not refused
            and verdict.rule not in (pending.rule, Rule.TURN.value))

    def pending_notice(self, seq: int, pending: Pending) -> Notice:
        """The foul pending, told once."""
        whose = f"{pending.player}'s move" if pending.player else "the move"
        return Notice(seq, still_pending(f"The {whose}", pending.seq) + ".", "warning")

    def _unmoved_filled(self, state: WormUpState, scene: Scene) -> Scene | None:
        """``scene`` with every worm whose segments seen all lie where they lay (none seen at
        all, too) put back whole where it lay; None when nothing is put back (or before the
        worms are known)."""
        if state.phase is Phase.SETUP or not state.worms:
            return None
        filled = fill_still_worms(state.worms, scene, self.diameter_mm, self.settings.segments)
        return None if filled is scene else filled

    def _still_unproved(self, state: WormUpState, scene: Scene) -> bool:
        """Whether a worm of ``scene`` put back whole by :meth:`_unmoved_filled` may have moved:
        read more than one short and not at its tail where it lay (a move takes the tail
        first, so with the tail read there :func:`~referee.worm_up.short_counts.counts_possible`
        is 0 alone; a worm read 0 of 7, or short at its tail, may have moved with all it laid
        not seen)."""
        n, still = self.settings.segments, self.settings.still_mm
        seen = read_table(self, scene)
        return any(len(seen.centres(w.player)) < n - 1 and counts_possible(
            w.centres_mm, seen.centres(w.player), still) != (0,) for w in state.worms)

    def _judge(self, state: WormUpState, event: Event, seq: int) -> Step[WormUpState]:
        """A bid or a scene judged on its own."""
        if isinstance(event, Bid):
            return self._bid(state, event, seq)
        if isinstance(event, SceneSeen):
            if state.phase is Phase.OVER:
                return Step(state)
            try:
                if state.phase is Phase.SETUP:
                    return self._setup_scene(state, event.scene, seq)
                step = self._scene(state, event.scene, seq)
                if any(isinstance(o, Doubt) for o in step.outputs):
                    return step
                return Step(replace(step.state, doubted=False), step.outputs)
            except RuleBroken as broken:
                foul = broken.judgement
                if foul.doubt:
                    # segments and posts do not appear or vanish during play: a misread first
                    doubted = replace(state, setup_doubted=True,
                                      doubted_setup=event.scene) \
                        if state.phase is Phase.SETUP else \
                        replace(self._place_seen(state, event.scene), doubted=True)
                    return Step(doubted, (Doubt(seq, foul.player, foul.pieces, foul.where,
                                                foul.reason.removesuffix(".") + ": "
                                                + foul.doubt),))
                return Step(state, (foul.verdict(seq),))
        player = getattr(event, "player", None)
        return Step(state, (Verdict(seq, player, False, Rule.EVENT.value,
                                    f"Worm Up! has no {event.type} events; players bid and "
                                    f"move their worms."),))

    def _bid(self, state: WormUpState, bid: Bid, seq: int) -> Step[WormUpState]:
        """A bid judged (:func:`judge_bid`). Worms it takes as moved (the last table was in
        doubt and the players went on) are placed where that last reading in doubt shows them
        whole and moved (:meth:`_place_seen`; one read where it lay had not moved yet: its
        move came after that table), and what it showed of the others is kept
        (``unsure_seen``: read whole later with those segments where they were, they have not
        moved since)."""
        step = judge_bid(self, state, bid, seq)
        new, last = step.state, state.doubted_reading
        taken = [p for p in new.unsure if p not in state.unsure or (
            state.phase is Phase.MOVING and p not in state.moved)]
        if last is None or not taken:
            return step
        read = read_table(self, last)
        new = replace(new, unsure_seen=(
            *(x for x in new.unsure_seen if x[0] not in taken),
            *((p, tuple(read.centres(p))) for p in taken if read.centres(p))))
        return Step(self._place_seen(new, last, moved_only=True), step.outputs)

    def accept(self, state: WormUpState, scene: Scene, seq: int) -> Step[WormUpState]:
        """The table as it is becomes the accepted table (see the module's notes); an illegal
        verdict pending is overruled."""
        state = replace(state, pending=None, pending_told=False, before_move=None)
        try:
            if state.phase is Phase.SETUP:
                new = self._setup_accepted(scene)
                return Step(replace(new, table=scene, phase=Phase.BIDDING),
                            (Verdict(seq, None, True, Rule.OK.value,
                                     "The table was accepted as the start; bidding for round 1 "
                                     "is open."),))
            return self._accept_later(state, scene, seq)
        except RuleBroken as broken:
            foul = broken.judgement
            return Step(state, (Verdict(seq, foul.player, False, Rule.ACCEPT.value,
                                        f"The table cannot be accepted: {foul.reason[:1].lower()}"
                                        f"{foul.reason[1:]}", foul.pieces, foul.where),))

    def _setup_accepted(self, scene: Scene) -> WormUpState:
        """The first table accepted as it is; worms read short on their line are completed
        where the heads are most level (kept as a guess, :mod:`referee.worm_up.end_short`).

        Raises:
            RuleBroken: the table cannot be the start even so.
        """
        try:
            return read_setup(self, scene, strict=False)
        except RuleBroken as broken:
            counts = {p: self.settings.segments for p in self.players}
            best: tuple[float, WormUpState] | None = None
            for guess in end_guesses(scene, counts, self.diameter_mm,
                                     self.settings.straight_mm):
                try:
                    new = read_setup(self, guess.scene, strict=False)
                except RuleBroken:
                    continue
                spread = heads_spread_mm(new.worms)
                if best is None or spread < best[0] - 1.0:
                    best = (spread, replace(new, guessed=guess.others))
            if best is None:
                raise broken from None
            return best[1]

    def describe(self, state: WormUpState) -> dict[str, Any]:
        """The dashboard's view: round, who has bid (not what), tiles, order, line, worms."""
        revealed = state.reveal
        in_round = state.phase is Phase.MOVING
        order = [m.to_json() for m in revealed.order] if revealed is not None else []
        next_players: list[str] = []
        if in_round and revealed is not None:
            next_players = list(revealed.next_players(state.moved))
        bid_players = [p for p, _, _ in state.bids]
        return {
            "round": state.round,
            "phase": state.phase.value,
            "bids_in": [p for p in self.players if p in bid_players],
            "waiting_for": ([p for p in self.players if p not in bid_players]
                            if state.phase is Phase.BIDDING else []),
            "last_reveal": revealed.to_json() if revealed is not None else None,
            "tiles": state.rack.to_json(),
            "move_order": order if in_round else [],
            "moved": list(state.moved),
            "next": next_players,
            "x_post_move": (revealed.x_player if revealed is not None and not state.post_moved
                            and state.phase in (Phase.BIDDING, Phase.MOVING) else None),
            "start_line_mm": ([list(p) for p in state.start_posts_mm]
                              if state.start_posts_mm else None),
            "finish_line_mm": ([list(p) for p in state.finish_posts_mm]
                               if state.finish_posts_mm else None),
            "strip_width_mm": self.settings.strip_width_mm,
            "worms": {w.player: w.to_json() for w in state.worms},
            "winner": state.winner,
        }

    def status(self, scene: Scene) -> Status:
        """Whether ``scene`` is physically a table of this game, as bits (``Status.VALID``: yes).

        Asked before any rule: a worm without its segments or not in one piece, worms touching,
        posts missing.
        """
        return table_status(self, scene)

    def legal_bids(self, state: WormUpState, player: str) -> tuple[str, ...]:
        """The tiles ``player`` may bid now (none outside the bidding)."""
        if state.phase is not Phase.BIDDING or player not in self.players:
            return ()
        return state.rack.available(player)

    def outcome(self, state: WormUpState) -> str | None:
        """The winner, or None while the race goes on."""
        return state.winner

    def secret_bids(self, state: WormUpState) -> SecretBids:
        """A :class:`SecretBids` for the round being bid, holding the bids already in.

        The phone pages can rebuild their secret view from the referee's state this way
        (after an undo, say) instead of keeping a second truth.
        """
        sb = SecretBids(self.players, state.rack, state.round)
        if state.phase is Phase.BIDDING:
            for player, tile, number in state.bids:
                sb.submit(player, tile, number)
        return sb

    # ------------------------------------------------------------------ scenes

    def _setup_scene(self, state: WormUpState, scene: Scene, seq: int) -> Step[WormUpState]:
        """The first table: the worms set up by the rules, then bidding opens (a segment read
        with another worm's colour put right first: :mod:`referee.worm_up.colour_misread`). A
        post misread that explains a start against the rules is a doubt unless this reading
        agrees with the reading in doubt before it, each with every post read confidently
        (read twice alike: :mod:`referee.worm_up.post_misread`).
        After a first table in doubt that the players bid on, a whole reading that breaks the
        start rules may show a worm already moved: a doubt, not a foul."""
        s = self.settings
        scene = recolour_first(scene, self.players, s.segments, self.diameter_mm,
                               s.chain_gap_mm)
        earlier = state.doubted_reading
        sure = self.settings.misread_confidence
        twice = earlier is not None and agree(earlier, scene, self.settings.misread_mm) and \
            all(p.confidence is None or p.confidence >= sure
                for p in earlier.pieces if p.kind == "post")
        try:
            new, layout, misread = first_table(self, scene, strict=True, read_twice=twice)
        except RuleBroken as broken:
            j = broken.judgement
            if j.doubt and j.rule == Rule.SETUP and not state.bids:
                # posts that fit no layout, or break the start rules as no one misread
                # explains: those read unsurely may be shadows
                found = self._without_posts(scene, seq, j.doubt in (MISREAD, POSTS_UNSURE))
                if found is not None:
                    return found
            if j.doubt or not (state.setup_doubted and state.bids):
                raise
            return Step(state, (Doubt(seq, j.player, j.pieces, j.where,
                                      j.reason.removesuffix(".") + ": the first table was "
                                      "never read whole, so has a worm moved since the bids? "
                                      "Fix the reading or accept the table."),))
        verdict = Verdict(seq, None, True, Rule.OK.value,
                          f"The {len(self.players)} worms are set up behind the start line; "
                          f"bidding for round 1 is open.")
        new, shown = bids_carried(self, state, replace(new, table=scene, phase=Phase.BIDDING),
                                  seq)
        told = posts_not_seen(layout, seq) if misread is None else \
            (post_misread_told(self, misread, seq),)
        return Step(new, (verdict, *told, *shown))

    def _without_posts(self, scene: Scene, seq: int, shadows: bool
                       ) -> Step[WormUpState] | None:
        """A first table in doubt for its posts: fewer than 3 seen, or (``shadows``: 3 or
        more that fit no layout or break the start rules as no one misread explains) fewer
        than 3 read surely (at least ``misread_confidence``; those read unsurely are left out:
        shadows, not posts). When
        its worms are read whole, straight, apart, pointing one way with their heads side by
        side: set up (the benefit of the doubt), with one doubt about the posts; None
        otherwise."""
        read = read_table(self, scene)
        posts = read.posts
        if len(posts) >= ALL_POSTS - 1 and shadows:
            posts = tuple((i, c) for i, c in posts
                          if not read.unsure(i, self.settings.misread_confidence))
        if len(posts) >= ALL_POSTS - 1:
            return None
        left_out = {i for i, _ in read.posts} - {i for i, _ in posts}
        try:
            new = setup_as_read(self, replace(scene, pieces=tuple(
                p for i, p in enumerate(scene.pieces) if i not in left_out)))
        except RuleBroken:
            return None
        if not set_up_in_line(self, new):
            return None
        seen = len(posts)
        unsure = f" ({len(left_out)} more read unsurely, left out)" if left_out else ""
        new = replace(new, table=scene, phase=Phase.BIDDING)
        return Step(new, (
            Verdict(seq, None, True, Rule.OK.value,
                    f"The {len(self.players)} worms are set up side by side; bidding for round "
                    f"1 is open."),
            Doubt(seq, None, tuple(i for i, _ in read.posts), None,
                  f"{seen} of the {ALL_POSTS} posts are seen{unsure}: are they hidden or "
                  f"misread? The race goes on without a start line; the finish line is taken "
                  f"where both finish posts are read surely.")))

    def _scene(self, state: WormUpState, scene: Scene, seq: int) -> Step[WormUpState]:
        """A later table: one worm moved in its turn (and perhaps a finish post after an X).
        A segment read with another worm's colour is put right
        (:func:`referee.worm_up.colour_misread.recolour_misread`); a worm that did not move,
        read one segment short, keeps it where it lay
        (:func:`referee.worm_up.still_worms.fill_still_worms`), and after a table in doubt,
        where the reading in doubt showed it whole (it has not moved since that reading:
        203417, blue's move in doubt taken back to where it lay when it was read short later,
        then called a ``turn`` foul when it was read whole where it lay since)."""
        if state.guessed:  # a worm seen whole tells where its segment never seen lies
            seen = read_table(self, scene)
            state = settle_guesses(state, {p: seen.centres(p) for p in self.players},
                                   self.settings.still_mm)
        scene = recolour_misread(state.worms, scene, self.diameter_mm,
                                 self.settings.chain_gap_mm, self.settings.still_mm)
        scene = fill_still_worms(state.worms, scene, self.diameter_mm)
        if state.doubted and state.doubted_reading is not None:
            scene = fill_still_worms(self._whole_in(state.doubted_reading), scene,
                                     self.diameter_mm)
        read = read_table(self, scene)
        try:
            check_counts(self, read, Rule.PIECES)
        except RuleBroken as broken:
            out_of_turn(self, state, read)  # a worm seen moving out of its turn is told so
            beside = self._beside_a_worm_in_doubt(state, scene, read, seq, broken)
            if beside is not None:
                return beside
            raise
        told: tuple[Event, ...] = ()
        if state.doubted:
            state, told = self._went_on(state, read, seq)
        if state.unsure:
            state = self._reseat(state, read)
        if state.finish_posts_mm is None:  # never seen yet: two read surely ahead, twice
            state = self._finish_seen(state, read)
        still, changed, moved_post = changes(self, state, read)
        if not changed and moved_post is None:
            return Step(state)
        back = self._taken_back(state, scene, read, changed, moved_post, seq)
        if back is not None:
            return back
        if not changed:
            assert moved_post is not None
            new = post_move(self, state, read, moved_post)
            return self._after_post(new, scene, seq)
        if state.doubted and moved_post is None and len(changed) > 1:
            in_turn = self._next_in_order(state, changed)
            if in_turn:  # the tables between were not seen still: each move in its turn
                return self._moves_in_order(state, read, scene, seq, still, in_turn)
        if told:
            step = self._one_move(state, scene, read, seq, still, changed, moved_post)
            return Step(step.state, (*told, *step.outputs))
        return self._one_move(state, scene, read, seq, still, changed, moved_post)

    def _whole_in(self, scene: Scene) -> list[Worm]:
        """The worms ``scene`` shows whole (every segment, one chain), as read."""
        read = read_table(self, scene)
        out = []
        for p in self.players:
            pts = read.centres(p)
            if len(pts) == self.settings.segments and geo.best_chain(
                    pts, self.diameter_mm, self.settings.chain_gap_mm) is not None:
                out.append(Worm(p, tuple(pts)))
        return out

    def _beside_a_worm_in_doubt(self, state: WormUpState, scene: Scene, read: TableRead,
                                seq: int, broken: RuleBroken) -> Step[WormUpState] | None:
        """One worm read with too few or too many segments while another moved
        (:mod:`referee.worm_up.worm_in_doubt`): the table judged with the worm in doubt where
        it lay; the verdicts on the other worm stand when they cannot depend on it (it is
        proved still, or the mover is clear of it and it is not due before the mover). A worm
        in doubt taken as moved and not seen whole since (``unsure``) stays so; the mover
        must then be clear of it by a segment more (where it lies is less known). The
        worm in doubt is asked about once (a doubt beside the first such verdict), and stays
        where it lay. None otherwise (the table is in doubt, as before)."""
        n, s = self.settings.segments, self.settings
        off = [p for p in self.players if len(read.segments[p]) != n]
        if len(off) != 1 or state.phase is not Phase.MOVING or state.reveal is None or \
                not set(state.unsure) <= set(off) or state.guessed or scene.hand:
            return None
        doubtful = off[0]
        worm, seen = state.worm(doubtful), read.centres(doubtful)
        unplaced = doubtful in state.unsure  # taken as moved, never seen since: where it
        # lies is not known (judged where it lay before, then clear of it by a segment more)
        trial = replace(state, unsure=(), unsure_steps=(), unsure_seen=()) if unplaced \
            else state
        try:
            step = self._scene(trial, put_back(scene, worm), seq)
        except RuleBroken as b:
            if b.judgement.doubt:
                return None
            step = Step(state, (b.judgement.verdict(seq),))
        verdicts = [o for o in step.outputs if isinstance(o, Verdict)]
        if not verdicts or any(isinstance(o, Doubt) for o in step.outputs) or \
                any(v.player in (None, doubtful) for v in verdicts):
            return None
        if unplaced or not proved_still(worm, seen, s.still_mm):
            reach = self.diameter_mm + s.touch_gap_mm + s.misread_mm + \
                (self.diameter_mm + s.chain_gap_mm if unplaced else 0.0)
            for v in verdicts:
                assert v.player is not None
                laid = [c for c in read.centres(v.player) if all(
                    geo.dist(c, o) > s.still_mm for o in state.worm(v.player).centres_mm)]
                if due_before(state, doubtful, v.player) or depends_on(worm, seen, laid, reach):
                    return None
        count = len(scene.pieces)  # the worm put back is no piece of the reading
        outputs = tuple(replace(o, pieces=tuple(i for i in o.pieces if i < count))
                        if isinstance(o, Verdict) else o for o in step.outputs)
        if unplaced:  # still taken as moved, to be placed where a table reads it whole
            step = Step(replace(step.state, unsure=state.unsure,
                                unsure_steps=state.unsure_steps,
                                unsure_seen=state.unsure_seen), step.outputs)
        if doubtful in state.count_doubted:
            return Step(replace(step.state, count_doubted=state.count_doubted), outputs)
        j = broken.judgement
        asked = Doubt(seq, doubtful, j.pieces, j.where,
                      f"{j.reason.removesuffix('.')}: is a piece hidden or misread? Until it "
                      f"is read whole, {doubtful}'s worm is taken to lie where it lay, and the "
                      f"other worms' moves are judged.")
        return Step(replace(step.state, count_doubted=(*state.count_doubted, doubtful)),
                    (*outputs, asked))

    def _one_move(self, state: WormUpState, scene: Scene, read: TableRead, seq: int,
                  still: dict[str, dict[int, int]], changed: list[str],
                  moved_post: Point2 | None) -> Step[WormUpState]:
        """A later table where worms changed: the one that moved judged (its turn, then the
        move), with a finish post moved beside it."""
        player = the_mover(TurnCheck(state, read, tuple(changed), moved_post))
        new, verdict, worm, number = self._move(state, read, player, still[player], seq)
        new = replace(new, table=posts_kept(self, state, scene, read, moved_post),
                      before_move=replace(state, before_move=None)
                      if moved_post is None else None)
        if moved_post is not None:
            new = post_move(self, new, read, moved_post)
            verdict = replace(verdict, reason=verdict.reason.removesuffix(".")
                              + " and moved a finish post.")
        winner = finisher(self, new, player, worm.centres_mm[-number:] if number else ())
        if winner is None and moved_post is not None:
            winner = head_on_line(self, new, player)
        if winner is not None:
            return Step(replace(new, phase=Phase.OVER, winner=winner),
                        (verdict, Finish(winner, 1, seq), Winner(winner, seq)))
        return Step(maybe_end_round(new), (verdict,))

    def _finish_seen(self, state: WormUpState, read: TableRead) -> WormUpState:
        """``state`` with the finish line it never had taken from ``read``: the two posts
        read surely a worm's length ahead of the heads, either side of the worms
        (:func:`finish_ahead`), where the reading before showed them too (a shadow read
        surely on one table, 135734: a false finish line, then a false winner)."""
        s = self.settings
        seen = finish_ahead(self, state.worms, [c for i, c in read.posts
                                                if not read.unsure(i, s.misread_confidence)])
        once = state.finish_once
        if seen is not None and once is not None and \
                len(geo.match_still(once, seen, s.post_still_mm)) == 2:
            return replace(state, finish_posts_mm=seen, finish_once=None)
        return replace(state, finish_once=seen)

    def _taken_back(self, state: WormUpState, scene: Scene, read: TableRead,
                    changed: list[str], moved_post: Point2 | None, seq: int
                    ) -> Step[WormUpState] | None:
        """The worm of the last move judged legal seen back where it lay before it (every
        segment within ``still_mm``), nothing else changed, no bid since: the move is taken
        back (the players put it right: a move taken legal with the heads told by it that
        was one backwards, say), not moved again out of turn; the state before it stands.
        None otherwise."""
        before = state.before_move
        if before is None or moved_post is not None or len(changed) != 1:
            return None
        player = changed[0]  # the worm that moved last: the only one not where it lay before
        old = before.worm(player).centres_mm
        if len(read.centres(player)) != len(old) or len(geo.match_still(
                old, read.centres(player), self.settings.still_mm)) != len(old):
            return None
        return Step(replace(before, table=posts_kept(self, before, scene, read, None)), (
            Notice(seq, f"{player}'s worm is back where it lay before its move: the move is "
                        f"taken back, and {player} moves again.", "warning"),))

    def _move(self, state: WormUpState, read: TableRead, player: str, still: dict[int, int],
              seq: int) -> tuple[WormUpState, Verdict, Worm, int]:
        """One worm's move judged (:func:`judge_move`): the state after it, its verdict, the
        worm and the count."""
        assert state.reveal is not None
        rv = state.reveal
        if state.heads_unknown:  # the first move tells which end the heads are
            state, still = self._heads_told(state, read, player, still)
            state = replace(state, heads_unknown=False)
        state, still = self._guess_for_move(state, read, player, still)
        try:
            worm, new_idx, number = judge_move(self, state, read, player, still)
        except RuleBroken as broken:
            found = broken.judgement
            if found.doubt or player not in state.placed_late:
                raise
            # placed from a reading after the reveal: part of this move may lie before it
            raise RuleBroken(replace(found, doubt=(
                f"{player}'s worm was placed where a table read it after the bids, so part "
                f"of this move may have been made unseen before. Fix the reading or accept "
                f"the table"))) from None
        m = rv.mover(player)
        new_rv = rv.with_number(player, number) if m is not None and m.number is None else rv
        worms = tuple(worm if w.player == player else w for w in state.worms)
        new = replace(state, worms=worms, reveal=new_rv, moved=(*state.moved, player),
                      placed_late=tuple(p for p in state.placed_late if p != player))
        how = f" (X as {number})" if rv.bid_of(player) == "X" else ""
        return new, Verdict(seq, player, True, Rule.OK.value,
                            f"{player} moved {number} segments from tail to head{how}.",
                            tuple(new_idx)), worm, number

    def _heads_told(self, state: WormUpState, read: TableRead, player: str,
                    still: dict[int, int]) -> tuple[WormUpState, dict[int, int]]:
        """The worms turned the way ``player``'s first move tells, while which end is the
        head is not known (``heads_unknown``). The way is told by where the segments went,
        not by whether the count was allowed: a move that lays segments from one end in
        front of the other is read that way even when it is a foul (a move of 5 on a bid of
        4 is ``steps``, not ``tail`` because the heads were taken the other way). Order of
        preference: the way under which the move is legal, then the way under which it
        goes tail to head (a foul of count, turn or touch), else the worms as they are."""
        n = len(state.worm(player).centres_mm)
        turned = (replace(state, worms=tuple(Worm(w.player, w.centres_mm[::-1])
                                             for w in state.worms)),
                  {n - 1 - i: j for i, j in still.items()})
        ways = ((state, still), turned)
        geometric = (Rule.TAIL.value, Rule.SHAPE.value)
        rank = []
        for s, st in ways:
            try:
                judge_move(self, s, read, player, st)
                rank.append(0)
            except RuleBroken as broken:
                rank.append(1 if broken.judgement.rule not in geometric else 2)
        return ways[min(range(len(ways)), key=lambda k: (rank[k], k))]

    def _guess_for_move(self, state: WormUpState, read: TableRead, player: str,
                        still: dict[int, int]) -> tuple[WormUpState, dict[int, int]]:
        """The first move of a worm completed on its line at the start: a move that is legal
        under another way its segments not seen could lie and a foul only by the way taken
        is a doubt (the table cannot tell which: never a foul, nor a legal verdict, from a
        guess); else it is judged as taken and the guess is settled.

        Raises:
            RuleBroken: the doubt.
        """
        lines = next((g[1] for g in state.guessed if g[0] == player), None)
        if lines is None:
            return state, still
        settled = replace(state, guessed=tuple(g for g in state.guessed if g[0] != player))
        try:
            judge_move(self, settled, read, player, still)
            return settled, still
        except RuleBroken as broken:
            found = broken.judgement
        for alt in other_ends(state.worm(player), lines):
            turned = replace(settled, worms=tuple(alt if w.player == player else w
                                                  for w in state.worms))
            try:
                judge_move(self, turned, read, player,
                           geo.match_still(alt.centres_mm, read.centres(player),
                                           self.settings.still_mm))
            except RuleBroken:
                continue
            x, y = alt.tail_mm
            raise foul(found.rule, f"{found.reason.removesuffix('.')}, if {player}'s "
                                   f"segments never seen at the start lay where they were "
                                   f"taken", player, found.pieces, found.where,
                       doubt=f"or did its tail lie at ({x:.0f}, {y:.0f}), which makes the "
                             f"move legal? Fix the reading or accept the table")
        return settled, still  # a foul wherever they lay

    @staticmethod
    def _next_in_order(state: WormUpState, changed: list[str]) -> list[str]:
        """``changed`` in move order when they are exactly the next worms to move, else []."""
        return next_in_order(state, changed)

    def _moves_in_order(self, state: WormUpState, read: TableRead, scene: Scene, seq: int,
                        still: dict[str, dict[int, int]], players: list[str]
                        ) -> Step[WormUpState]:
        """After a table in doubt, several worms moved, exactly the next ones in the move
        order (the tables between were not seen still): each move judged in its turn."""
        new, outputs = replace(state, before_move=None), []
        for player in players:
            new, verdict, worm, number = self._move(new, read, player, still[player], seq)
            outputs.append(verdict)
            winner = finisher(self, new, player, worm.centres_mm[-number:] if number else ())
            if winner is not None:
                new = replace(new, table=posts_kept(self, state, scene, read, None))
                return Step(replace(new, phase=Phase.OVER, winner=winner),
                            (*outputs, Finish(winner, 1, seq), Winner(winner, seq)))
        new = replace(new, table=posts_kept(self, state, scene, read, None))
        return Step(maybe_end_round(new), tuple(outputs))

    def _went_on(self, state: WormUpState, read: TableRead, seq: int
                 ) -> tuple[WormUpState, tuple[Event, ...]]:
        """After a table in doubt: the worm whose move is next, read whole where the last
        reading in doubt showed it (every segment it showed within ``still_mm``) and not where
        it lay, while another worm has moved since that reading: the players went on, so its
        move is taken as made where it lies (a warning notice; no verdict: it was in doubt),
        and the next move is judged from there (153000: a doubt about one move, then every
        later move of the game lost). The move taken as made is not proved (a worm taken as
        moved at the bids and never placed may show only that move, its move of this round
        still to come: misread sim 159306), so the worm is ``placed_late``: no foul is proved
        from where it lies this round, and a bid while a later table is in doubt takes it as
        moved again (:func:`~referee.worm_up.turns.moves_stand`). ``state`` unchanged
        otherwise."""
        last = state.doubted_reading
        if last is None or state.phase is not Phase.MOVING or state.reveal is None:
            return state, ()
        s, n = self.settings, self.settings.segments
        before = read_table(self, last)
        since = [w.player for w in state.worms if len(geo.match_still(
            before.centres(w.player), read.centres(w.player), s.still_mm)) != n]
        for p in state.reveal.next_players(state.moved):
            then, now = before.centres(p), read.centres(p)
            if len(now) != n or not then or p in since or not [q for q in since if q != p] or \
                    len(geo.match_still(then, now, s.still_mm)) != len(then) or \
                    len(geo.match_still(state.worm(p).centres_mm, now, s.still_mm)) == n:
                continue
            try:
                order = chain_of(self, read, p, Rule.PIECES)
            except RuleBroken:
                continue
            pts = [now[k] for k in order]
            worms = tuple(Worm(p, self._orient(state, w, pts)) if w.player == p else w
                          for w in state.worms)
            state = replace(state.placed((p,)), worms=worms, moved=(*state.moved, p),
                            placed_late=(*(q for q in state.placed_late if q != p), p),
                            before_move=None)
            return state, (Notice(seq, f"{p}'s move was in doubt and the players went on: it "
                                       f"is taken as made, {p}'s worm where it lies now.",
                                  "warning"),)
        return state, ()

    def _reseat(self, state: WormUpState, read: TableRead) -> WormUpState:
        """Worms taken as moved without being seen (``unsure``) are placed where this table
        reads them whole (:meth:`_placed`).

        Raises:
            RuleBroken: a doubt about one of them (the others are placed first when a doubt
                is told: :meth:`_place_seen`).
        """
        new, problem = self._placed(state, read, late=state.phase is Phase.MOVING)
        if problem is not None:
            raise problem
        return new

    def _placed(self, state: WormUpState, read: TableRead, moved_only: bool = False,
                late: bool = False) -> tuple[WormUpState, RuleBroken | None]:
        """``state`` with each worm taken as moved without being seen (``unsure``) that
        ``read`` shows whole placed there, each on its own; the first doubt about one that
        cannot be placed (None: every one read whole was placed). One that may move now is
        placed only where it lies as before, or where the reading in doubt when it was taken
        as moved showed it (``unsure_seen``, its head among them: it has not moved since):
        otherwise the table may already show its move, which cannot be judged from where it
        was never seen. Segments seen then that all lie where they were, but not the head,
        prove nothing: a move of ``j`` keeps the old ``old[j:]`` where they lay (138617: blue
        seen 2 of 7 at the bids, its tail end; the next table showed its move of 4, which was
        taken as where it lay, and yellow's move gave an ``order`` false alarm). A move lays
        its segments ahead of the head, where none lay (worms are not curled back on
        themselves), so a segment seen at the head now proves no move since; so does its tail
        where the move it was taken to make left its tail (``unsure_steps``: a move takes the
        tail first, and the move taken as made is the one the reading in doubt showed). With
        the heads not known yet (``heads_unknown``), only segments seen at both ends prove it.
        ``moved_only``: a worm read where it lay (every segment) is not placed (a reading from
        before its move). ``late``: ``read`` was made after this round's reveal, so a worm
        placed from it not proved still (where it lay, or as seen with its head) may already
        show its move of this round (``placed_late``)."""
        movers = state.reveal.next_players(state.moved) \
            if state.phase is Phase.MOVING and state.reveal is not None else ()
        n, s = self.settings.segments, self.settings
        worms, placed, problem, unproved = [], set(), None, []
        for w in state.worms:
            if w.player not in state.unsure or len(read.segments[w.player]) != n:
                worms.append(w)
                continue
            try:
                try:
                    order = chain_of(self, read, w.player, Rule.PIECES)
                except RuleBroken as broken:  # never seen since: nothing to judge a split by
                    j = broken.judgement
                    raise foul(Rule.PIECES, f"{w.player}'s worm, taken as moved without being "
                                            f"seen, is not read as one chain.", w.player,
                               j.pieces, j.where, doubt=j.doubt or "is a segment misread? "
                               "Accept the table or fix it") from None
                pts = [read.centres(w.player)[k] for k in order]
                if moved_only and len(geo.match_still(w.centres_mm, pts, s.still_mm)) == n:
                    worms.append(w)
                    continue
                steps = dict(state.unsure_steps).get(w.player)
                seen = dict(state.unsure_seen).get(w.player, ())
                way = self._orient(state, w, pts)
                heads = (way[0], way[-1]) if state.heads_unknown else (way[-1],)
                tail_left = w.centres_mm[steps] if steps is not None and steps < n and \
                    not state.heads_unknown else None
                as_seen = bool(seen) and len(geo.match_still(
                    seen, pts, s.still_mm)) == len(seen) and (all(any(
                        geo.dist(c, h) <= s.still_mm for c in seen) for h in heads) or (
                        tail_left is not None and geo.dist(way[0], tail_left) <= s.still_mm))
                where_it_lay = len(geo.match_still(
                    w.centres_mm, pts, s.still_mm)) == len(w.centres_mm)
                whole = self._move_seen_whole(w, seen, steps)
                if w.player not in movers and whole is not None and steps is not None and \
                        not self._left_by(w, pts, steps):
                    # its move was seen made whole: from there, the move since is judged
                    worms.append(Worm(w.player, whole))
                    placed.add(w.player)
                    continue
                if w.player not in movers and steps is not None and \
                        not self._left_by(w, pts, steps):
                    # a move of ``steps`` keeps the rest where it lay: it moved again since
                    raise foul(Rule.PIECES, f"{w.player}'s worm has not been seen since it "
                                            f"was taken as moved {steps}, and lies further on.",
                               w.player, read.indices(w.player), None,
                               doubt="has it moved again out of its turn? Put it back, fix "
                                     "the reading or accept the table")
                if w.player in movers and not as_seen and not where_it_lay:
                    raise foul(Rule.PIECES, f"{w.player}'s worm has not been seen since it "
                                            f"was taken as moved, so this move cannot be "
                                            f"judged.", w.player, read.indices(w.player), None,
                               doubt="is it where it lies now? Accept the table or fix it")
            except RuleBroken as broken:
                problem = problem or broken
                worms.append(w)
                continue
            worms.append(Worm(w.player, self._orient(state, w, pts)))
            placed.add(w.player)
            if late and not as_seen and not where_it_lay:
                unproved.append(w.player)
        late_too = tuple(p for p in unproved if p not in state.placed_late)
        new = replace(state.placed(placed), worms=tuple(worms),
                      placed_late=(*state.placed_late, *late_too))
        return new, problem

    def _place_seen(self, state: WormUpState, scene: Scene, moved_only: bool = False
                    ) -> WormUpState:
        """``state`` with the worms taken as moved that ``scene`` reads whole placed there
        (:meth:`_placed`; a worm one short with a hole of one segment has it in the hole),
        whatever else is in doubt: a doubt about one worm does not keep the others
        unplaced (one misread cost every later turn of a game: 153000). ``moved_only``: as
        :meth:`_placed`."""
        if not state.unsure or state.phase in (Phase.SETUP, Phase.OVER):
            return state
        counts = {p: self.settings.segments for p in state.unsure}
        scene = fill_holes(scene, counts, self.diameter_mm, self.settings.chain_gap_mm) or scene
        read = read_table(self, fill_still_worms(state.worms, scene, self.diameter_mm))
        return self._placed(state, read, moved_only,
                            late=not moved_only and state.phase is Phase.MOVING)[0]

    def _move_seen_whole(self, old: Worm, seen: Sequence[Point2], steps: int | None
                         ) -> tuple[Point2, ...] | None:
        """Where the reading in doubt when ``old``'s worm was taken as moved ``steps`` showed
        it (``seen``, :attr:`WormUpState.unsure_seen`), tail first, when it showed every
        segment of it, one chain within what a reading may be off (the doubt was about a few
        millimetres, not a segment), where a move of ``steps`` leaves it (:meth:`_left_by`):
        its move was seen made whole, not half made, so a reading showing it elsewhere since
        shows a move of its own, judged from there (issue 13, play 200117: red taken as moved
        7, seen whole a few mm apart, then moving before yellow was doubted, not called
        ``order``). None otherwise."""
        n, s = len(old.centres_mm), self.settings
        if steps is None or len(seen) != n:
            return None
        order = geo.best_chain(list(seen), self.diameter_mm,
                               s.chain_gap_mm + s.misread_mm)
        if order is None:
            return None
        pts = [seen[k] for k in order]
        if not self._left_by(old, pts, steps):
            return None
        return tuple(pts) if geo.dist(pts[0], old.head_mm) <= geo.dist(pts[-1], old.head_mm) \
            else tuple(reversed(pts))

    def _left_by(self, old: Worm, pts: list[Point2], steps: int) -> bool:
        """Whether ``pts`` (one chain) may be where a move of ``steps`` left worm ``old``: the
        rest of it where it lay, and, when the whole worm moved, its new tail touching where
        its head lay (a worm of 7 moved 7 may lie anywhere else only by moving again)."""
        n, s = len(old.centres_mm), self.settings
        if len(geo.match_still(old.centres_mm, pts, s.still_mm)) < n - steps:
            return False
        reach = self.diameter_mm + s.chain_gap_mm + s.misread_mm
        return steps < n or min(geo.dist(pts[0], old.head_mm),
                                geo.dist(pts[-1], old.head_mm)) <= reach

    def _after_post(self, state: WormUpState, scene: Scene, seq: int) -> Step[WormUpState]:
        """A finish post moved on its own: legal, and a worm it now touches finishes."""
        rv = state.reveal
        assert rv is not None and rv.x_player is not None
        x = rv.x_player
        new = replace(state, table=scene, before_move=None)
        outputs: list[Event] = [Verdict(seq, x, True, Rule.OK.value,
                                        f"{x} moved a finish post (after the X).")]
        winner = head_on_line(self, new, x)
        if winner is not None:
            return Step(replace(new, phase=Phase.OVER, winner=winner),
                        (*outputs, Finish(winner, 1, seq), Winner(winner, seq)))
        return Step(new, tuple(outputs))

    # ------------------------------------------------------------------ accept

    def _orient(self, state: WormUpState, old: Worm, pts: list[Point2]) -> tuple[Point2, ...]:
        """``pts`` (one chain) tail first: the way the worm pointed before, or to the finish."""
        ox, oy = old.head_mm[0] - old.tail_mm[0], old.head_mm[1] - old.tail_mm[1]
        nx, ny = pts[-1][0] - pts[0][0], pts[-1][1] - pts[0][1]
        along = ox * nx + oy * ny
        if abs(along) < 1e-6 * max(1.0, math.hypot(ox, oy) * math.hypot(nx, ny)) and \
                state.finish_posts_mm is not None:
            a, b = state.finish_posts_mm
            mid = ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)
            along = geo.dist(pts[0], mid) - geo.dist(pts[-1], mid)
        return tuple(pts if along > 0 else reversed(pts))

    def _accept_later(self, state: WormUpState, scene: Scene, seq: int) -> Step[WormUpState]:
        """The table as it is after the start: worms read again where they lie."""
        read = read_table(self, scene)
        check_counts(self, read, Rule.ACCEPT)
        _still, changed, moved_post = changes(self, state, read)
        worms = []
        for w in state.worms:
            if w.player not in changed:
                worms.append(w)
                continue
            order = chain_of(self, read, w.player, Rule.ACCEPT)
            pts = [read.centres(w.player)[k] for k in order]
            worms.append(Worm(w.player, self._orient(state, w, pts)))
        new = replace(state, table=posts_kept(self, state, scene, read, moved_post),
                      worms=tuple(worms),
                      guessed=tuple(g for g in state.guessed if g[0] not in changed))
        if moved_post is not None:
            assert state.finish_posts_mm is not None
            fm = geo.match_still(state.finish_posts_mm, [c for _, c in read.posts],
                                 self.settings.post_still_mm)
            anchor = state.finish_posts_mm[next(iter(fm))]
            new = replace(new, finish_posts_mm=(anchor, moved_post),
                          post_moved=new.post_moved or new.reveal is not None)
        if state.phase is Phase.MOVING:
            assert state.reveal is not None
            nxt = state.reveal.next_players(state.moved)
            done = [p for p in changed if p in nxt]
            if done:
                new = replace(new, moved=(*state.moved, *done))
                new = maybe_end_round(new)
        return Step(new, (Verdict(seq, None, True, Rule.OK.value,
                                  "The table was accepted as it is."),))
