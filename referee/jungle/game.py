"""The referee of the Animal Game: judges ``move`` events and scenes of tokens.

The game state is a frozen :class:`JungleState` (the position in text form, the history of
positions for the repetition rule, the last accepted table); :meth:`Jungle.step` is pure.

- A ``move`` event (``{"type": "move", "player": P, "from": "a1", "to": "a2"}``) is judged by
  the rules; legal -> verdict ``ok`` (and ``winner`` when it wins); illegal -> a verdict naming
  the rule (``turn``, ``steps``, ``water``, ``jump``, ``den``, ``occupied``, ``capture``,
  ``repetition``, ``over``, ``square``, ``empty``, ``player``) and one sentence.
- A ``scene`` of tokens (kind ``token``, ids 50-65, positions in the board's millimetre frame) is
  mapped to squares and compared with the position: one token moved -> that move, judged; two
  tokens of one side moved -> that player moved twice (``turn``); two tokens moved otherwise, a
  token between squares, two tokens on one square, a token put aside -> a verdict saying so; a
  token not seen, a captured one seen again, one marker read on two tokens -> a doubt (tokens
  are conserved but by capture: a misread first, issue 13).
- Options (the setup's ``options``): the variants by name (``{"dog-swims": true}`` or
  ``{"variants": ["dog-swims"]}``), and ``timer`` (``true`` for 45 s, or seconds): each turn
  has that long, measured by the events' ``t``; a turn that runs out passes to the other player,
  and three such turns in a row lose the game.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from referee.base import Game, GameState, Judgement, Step
from referee.jungle import geometry as g
from referee.jungle.catch_up import catch_up
from referee.jungle.errors import UnknownVariantError
from referee.jungle.position import (
    Outcome,
    Position,
    Termination,
    board_text,
    make_move,
    move_squares,
    move_text,
)
from referee.jungle.rules import (
    ANIMALS,
    Rules,
    find_variant,
    kind_of,
    piece_name,
    rules_for,
    side_of,
    variant_names,
)
from tabletop.errors import RecordFormatError
from tabletop.events import Doubt, Event, Move, Notice, SceneSeen, Setup, Verdict, Winner
from tabletop.markers import JUNGLE_TOKEN_IDS
from tabletop.scene import Piece, Point2, Scene

DEFAULT_TIMER_S = 45.0
"""The scheme's turn timer when the option is just ``true``."""
MISSED_TURNS_TO_LOSE = 3
"""Turns in a row without a move (timer run out) that lose the game."""

_OPTIONS = ("variants", "timer", "sizes")


@dataclass(frozen=True)
class JungleState(GameState):
    """The referee's state between events.

    Attributes:
        table: The last accepted table (a scene), or None.
        position: The position in text form (:meth:`Position.text`).
        history: Every position reached so far (:meth:`Position.key`), the current one
            last; the repetition rule counts in it.
        moves: The moves played, in text form (``--`` for a turn lost to the timer).
        outcome: ``(termination, winning side)`` once the game is over.
        missed: Turns in a row lost to the timer, per side.
        turn_started: ``t`` when the current turn began (None when events carry no time).
        setup_seen: Before the first table is accepted: the tokens some reading saw on their
            squares (a token one reading lacks is carried from another that saw it).
        unseen_sides: The sides (0, 1) with a token not seen in a reading doubted since the
            last move judged: such a side may have moved on a table never read whole, so a
            foul that rests on whose turn it was is a doubt (:func:`after_doubt`).
    """

    table: Scene | None
    position: str
    history: tuple[bytes, ...]
    moves: tuple[str, ...] = ()
    outcome: tuple[str, int] | None = None
    missed: tuple[int, int] = (0, 0)
    turn_started: float | None = None
    setup_seen: frozenset[int] = frozenset()
    unseen_sides: frozenset[int] = frozenset()


SETUP_UNSEEN_MAX = 1
"""Tokens never seen on their start squares with which the first table still stands as set up
(each taken to stand there, with a warning): a reading lacking more is asked about."""


class Jungle(Game[JungleState]):
    """The Animal Game (Jungle / Dou Shou Qi) on the classic 7x9 board.

    The rules are :attr:`rules`, a :class:`referee.jungle.rules.Rules` class (a variant subclass
    when the setup names variants). Players: the setup's two players, the first starting on
    ranks 1-3.
    """

    name = "jungle"
    piece_kinds = ("token",)
    aliases = ("animal-game", "dou-shou-qi", "the-animal-game")

    def __init__(self, setup: Setup, rules: type[Rules] = Rules,
                 timer_s: float | None = None) -> None:
        super().__init__(setup)
        if len(self.players) != 2:
            raise RecordFormatError(
                f"setup: the animal game has two players, not {len(self.players)}")
        self.rules = rules
        self.timer_s = timer_s

    @classmethod
    def known_options(cls) -> frozenset[str]:
        """``variants``, ``timer``, ``sizes`` and every variant's name (``{"dog-swims": true}``)."""
        return frozenset({*_OPTIONS, *variant_names()})

    @classmethod
    def from_setup(cls, setup: Setup) -> Jungle:
        """The game with the variants and timer the setup's options name.

        Raises:
            RecordFormatError: an unknown option or variant, or a bad timer.
        """
        opts: Mapping[str, Any] = setup.options
        names: list[str] = []
        listed = opts.get("variants", ())
        if isinstance(listed, str):
            listed = (listed,)
        if not isinstance(listed, tuple | list) or not all(isinstance(n, str) for n in listed):
            raise RecordFormatError("setup: 'variants' must be a list of variant names")
        names.extend(listed)
        for key, value in opts.items():
            if key in _OPTIONS:
                continue
            try:
                find_variant(key)
            except UnknownVariantError:
                raise RecordFormatError(
                    f"setup: unknown jungle option {key!r} (known: variants, timer, "
                    f"{', '.join(variant_names())})") from None
            if not isinstance(value, bool):
                raise RecordFormatError(f"setup: option {key!r} must be true or false")
            if value:
                names.append(key)
        try:
            rules = rules_for(names)
        except UnknownVariantError as exc:
            raise RecordFormatError(f"setup: {exc}") from None
        timer = opts.get("timer")
        timer_s: float | None
        if timer is None or timer is False:
            timer_s = None
        elif timer is True:
            timer_s = DEFAULT_TIMER_S
        elif isinstance(timer, int | float) and math.isfinite(timer) and timer > 0:
            timer_s = float(timer)
        else:
            raise RecordFormatError("setup: 'timer' must be true, false or seconds (> 0)")
        return cls(setup, rules, timer_s)

    # ------------------------------------------------------------------ state helpers
    def initial_state(self) -> JungleState:
        """The start position, nobody's table seen yet."""
        pos = Position(rules=self.rules)
        return JungleState(None, pos.text(), (pos.key(),))

    def position(self, state: JungleState) -> Position:
        """A :class:`Position` of the state, with its repetition counts and the players' names."""
        pos = Position(state.position, self.rules)
        pos._seen = Counter(state.history)
        pos.names = (self.players[0], self.players[1])
        return pos

    def _after(self, state: JungleState, pos: Position, played: str, **kw: Any) -> JungleState:
        return replace(state, position=pos.text(), history=(*state.history, pos.key()),
                       moves=(*state.moves, played), **kw)

    # ------------------------------------------------------------------ judging
    def step(self, state: JungleState, event: Event, seq: int) -> Step[JungleState]:
        """Judges a move or a scene (rolls and bids have no place in this game)."""
        player = getattr(event, "player", None)
        if not isinstance(event, Move | SceneSeen):
            return Step(state, (Verdict(seq, player, False, "event",
                                        f"The animal game has no {event.type} events."),))
        state, outputs = self._run_clock(state, event.t, seq)
        if isinstance(event, Move):
            step = self._judge_move(state, event.player, event.from_square, event.to_square,
                                    seq, event.t, None)
        else:
            step = after_doubt(self._judge_scene(state, event.scene, seq, event.t), state,
                               event.scene, self.position(state), self.players, seq)
        return Step(step.state, outputs + step.outputs)

    def _run_clock(self, state: JungleState, t: float | None,
                   seq: int) -> tuple[JungleState, tuple[Event, ...]]:
        if self.timer_s is None or t is None or state.outcome is not None:
            return state, ()
        if state.turn_started is None:
            return replace(state, turn_started=t), ()
        outputs: list[Event] = []
        started = state.turn_started
        pos = self.position(state)
        missed = list(state.missed)
        while t - started >= self.timer_s:
            side = pos.side
            missed[side] += 1
            started += self.timer_s
            if missed[side] >= MISSED_TURNS_TO_LOSE:
                winner = 1 - side
                outputs.append(Notice(seq, f"{self.players[side]} let {MISSED_TURNS_TO_LOSE} "
                                           "turns in a row run out and loses", "warning"))
                outputs.append(Winner(self.players[winner], seq))
                state = replace(state, missed=(missed[0], missed[1]), turn_started=started,
                                outcome=(Termination.TIMEOUT.value, winner))
                return state, tuple(outputs)
            pos.pass_turn()
            outputs.append(Notice(seq, f"{self.players[side]}'s {self.timer_s:g} s ran out; "
                                       f"the turn passes to {self.players[1 - side]}", "warning"))
            state = self._after(state, pos, "--", missed=(missed[0], missed[1]),
                                turn_started=started)
        return state, tuple(outputs)

    def _judge_move(self, state: JungleState, player: str, from_name: str, to_name: str,
                    seq: int, t: float | None, table: Scene | None,
                    pieces: tuple[int, ...] = ()) -> Step[JungleState]:
        def no(rule: str, reason: str, where: Point2 | None = None) -> Step[JungleState]:
            return Step(state, (Judgement(rule, _sentence(reason), player, pieces,
                                          where).verdict(seq),))

        if player not in self.players:
            return no("player", f"{player!r} is not playing; the players are "
                                f"{self.players[0]} and {self.players[1]}")
        pos = self.position(state)
        if state.outcome is not None:
            return no("over", f"the game is over: {self.players[state.outcome[1]]} has won")
        for name in (from_name, to_name):
            if not g.is_square_name(name):
                return no("square", f"{name} is not a square of the board (a1..g9)")
        fr, to = g.parse_square(from_name), g.parse_square(to_name)
        where = g.square_centre_mm(to)
        if self.players[pos.side] != player:
            return no("turn", f"it is {self.players[pos.side]}'s turn, not {player}'s", where)
        move = make_move(fr, to)
        bad = pos.check(move)
        if bad is not None:
            return no(bad.rule, bad.reason, where)
        reason = pos.explain(move)
        pos.push(move)
        mover = 1 - pos.side
        missed = list(state.missed)
        missed[mover] = 0
        new = self._after(state, pos, move_text(move), missed=(missed[0], missed[1]),
                          turn_started=t if t is not None else state.turn_started,
                          table=table if table is not None else state.table)
        outputs: list[Event] = [Verdict(seq, player, True, "ok", _sentence(reason), pieces,
                                        where)]
        outcome = pos.outcome()
        if outcome is not None:
            new = replace(new, outcome=(outcome.termination.value, outcome.winner))
            outputs.append(Notice(seq, _ending(outcome, self.players)))
            outputs.append(Winner(self.players[outcome.winner], seq))
        return Step(new, tuple(outputs))

    def _judge_scene(self, state: JungleState, scene: Scene, seq: int, t: float | None
                     ) -> Step[JungleState]:
        pos = self.position(state)
        misread = misread_tokens(scene, pos)
        if misread is not None:
            return self._judge_misread(state, scene, misread, seq, t)
        seen = read_tokens(scene, names=(self.players[0], self.players[1]))

        def no(rule: str, reason: str, idx: tuple[int, ...] = (),
               where: Point2 | None = None, player: str | None = None) -> Step[JungleState]:
            return Step(state, (Judgement(rule, _sentence(reason), player, idx,
                                          where).verdict(seq),))

        if seen.problem is not None:
            bad = seen.problem
            if bad.rule == "token":  # one token per animal: a marker read twice is a misread
                return Step(state, (Doubt(seq, self.players[pos.side], bad.pieces, bad.where,
                                          _sentence(bad.reason)[:-1] + ": is one of them "
                                          "misread?"),))
            return no(bad.rule, bad.reason, bad.pieces, bad.where)
        on_board = {code: sq for sq, code in pos.pieces()}

        def doubt(reason: str, idx: tuple[int, ...], where: tuple[float, float] | None
                  ) -> Step[JungleState]:
            # tokens do not appear or vanish except by capture: a misread first, not a foul
            return Step(state, (Doubt(seq, self.players[pos.side], idx, where,
                                      reason[0].upper() + reason[1:]),))

        appeared = [c for c in seen.squares if c not in on_board]
        if appeared:
            c = appeared[0]
            return doubt(f"{self._animal(c)} is seen on {g.SQUARE_NAMES[seen.squares[c]]}, "
                         f"but it was captured: is it a misread, or was it put back?",
                         (seen.index[c],), g.square_centre_mm(seen.squares[c]))
        moved = sorted((c for c in seen.squares if seen.squares[c] != on_board[c]),
                       key=lambda c: seen.index[c])
        vanished = [c for c in on_board if c not in seen.squares]
        if not moved and not vanished:
            if state.table is None:
                return Step(replace(state, table=scene, setup_seen=frozenset()), (Verdict(
                    seq, None, True, "ok", f"The board stands as the game does; "
                    f"{self.players[pos.side]} to move."),))
            return Step(replace(state, table=scene))
        if not moved and state.table is None:
            return self._setup_with_tokens_unseen(state, scene, seen, vanished, on_board, seq)
        if len(moved) == 2:
            both = self._two_moves_in_turn(state, scene, seen, moved, on_board, seq, t)
            if both is not None:
                return both
            if not vanished:
                twice = self._moved_twice(state, seen, moved, on_board, seq)
                if twice is not None:
                    return twice
        if len(moved) >= 3:
            caught = self._caught_up(state, scene, seen, moved, vanished, on_board, seq, t)
            if caught is not None:
                return caught
        if len(moved) >= 2 and vanished:
            v = vanished[0]  # a reading with a token missing calls no "tokens moved" foul
            return doubt(f"{len(moved)} tokens moved since the last table judged and "
                         f"{self._animal(v)} is not seen on {g.SQUARE_NAMES[on_board[v]]}: "
                         "is it hidden, or were moves made that were not seen?",
                         tuple(seen.index[c] for c in moved), g.square_centre_mm(on_board[v]))
        if len(moved) >= 2:
            said = " and ".join(f"the {piece_name(c)} {g.SQUARE_NAMES[on_board[c]]}-"
                                f"{g.SQUARE_NAMES[seen.squares[c]]}" for c in moved[:3])
            return no("moves", f"{len(moved)} tokens moved ({said}); move one animal a turn",
                      tuple(seen.index[c] for c in moved))
        aside = [c for c in vanished if any(p.kind == "token" and p.id == 49 + c
                                            for p in scene.pieces)]
        if aside and not moved:  # seen off the board: taken away, not misread
            c = aside[0]
            return no("vanished", f"{self._animal(c)} left "
                                  f"{g.SQUARE_NAMES[on_board[c]]} but nothing captured it; "
                                  "put it back", (), g.square_centre_mm(on_board[c]))
        if not moved:
            c = vanished[0]
            return doubt(f"{self._animal(c)} is not seen on {g.SQUARE_NAMES[on_board[c]]} and "
                         f"nothing captured it: is it hidden, or was it taken away?", (),
                         g.square_centre_mm(on_board[c]))
        c = moved[0]
        fr, to = on_board[c], seen.squares[c]
        captured = pos.board[to]
        others = [v for v in vanished if v != captured]
        step = self._judge_move(state, self.players[side_of(c)], g.SQUARE_NAMES[fr],
                                g.SQUARE_NAMES[to], seq, t, scene, (seen.index[c],))
        if others and not all(v.legal for v in step.verdicts) and (
                len(others) > 1 or not self._foul_without(
                state, others, step, (self.players[side_of(c)], g.SQUARE_NAMES[fr],
                                      g.SQUARE_NAMES[to]), seq, t)):
            v = others[0]  # a reading with a token missing may only confirm a legal move,
            # or a foul the one token missing cannot change (there or not, the same foul)
            return doubt(f"{self._animal(v)} is not seen on {g.SQUARE_NAMES[on_board[v]]} and "
                         f"nothing captured it: is it hidden, or was it taken away?",
                         (seen.index[c],), g.square_centre_mm(on_board[v]))
        return step

    def _setup_with_tokens_unseen(self, state: JungleState, scene: Scene, seen: TokenReading,
                                  vanished: list[int], on_board: Mapping[int, int], seq: int
                                  ) -> Step[JungleState]:
        """The first table, no token off its start square but some not seen: tokens an earlier
        reading saw on their squares are carried; when at most :data:`SETUP_UNSEEN_MAX` were
        never seen, the board stands as set up (each taken to stand on its square, a warning
        naming it) and the accepted table has them at their squares' centres, where vision looks
        for them again. Else a doubt naming the first never seen (the tokens seen are kept)."""
        pos = self.position(state)
        seen_now = frozenset(c for c in seen.squares if seen.squares[c] == on_board.get(c))
        known = state.setup_seen | seen_now
        unseen = [c for c in vanished if c not in known]
        if len(unseen) > SETUP_UNSEEN_MAX:
            c = unseen[0]
            return Step(replace(state, setup_seen=known), (Doubt(
                seq, self.players[pos.side], (), g.square_centre_mm(on_board[c]), _sentence(
                    f"{self._animal(c)} is not seen on {g.SQUARE_NAMES[on_board[c]]}, nor "
                    f"{len(unseen) - 1} more of the start position: are they hidden, or not "
                    f"set up")[:-1] + "?"),))
        filled = tuple(Piece("token", *g.square_centre_mm(on_board[c]), id=49 + c)
                       for c in vanished)
        table = replace(scene, pieces=(*scene.pieces, *filled))
        outputs: list[Event] = [Verdict(seq, None, True, "ok", f"The board stands as the game "
                                                              f"does; {self.players[pos.side]} "
                                                              f"to move.")]
        if unseen:
            c = unseen[0]
            outputs.append(Notice(seq, _sentence(
                f"{self._animal(c)} is not seen on {g.SQUARE_NAMES[on_board[c]]}; it is taken "
                f"to stand there"), "warning"))
        return Step(replace(state, table=table, setup_seen=frozenset()), tuple(outputs))

    def _two_moves_in_turn(self, state: JungleState, scene: Scene, seen: Any,
                           moved: list[int], on_board: Mapping[int, int], seq: int,
                           t: float | None) -> Step[JungleState] | None:
        """Two tokens moved since the last table judged, one of each side: the side to move
        moved first and the other answered while the table was not seen still between them
        (or its reading was in doubt). When the first is legal both are judged in turn: the
        first stands, and the second is judged after it (the game goes on, not a chain of
        "2 tokens moved"). None otherwise (judged as two tokens moved)."""
        pos = self.position(state)
        first = [c for c in moved if side_of(c) == pos.side]
        second = [c for c in moved if side_of(c) != pos.side]
        if len(first) != 1 or len(second) != 1:
            return None
        c = second[0]
        before = _token_back(scene, seen.index[c], on_board[c])
        one = self._judge_scene(state, before, seq, t)
        if not one.verdicts or not all(v.legal for v in one.verdicts) or \
                any(isinstance(o, Doubt | Winner) for o in one.outputs):
            return None
        two = self._judge_scene(one.state, scene, seq, t)
        if len(two.verdicts) != 1 or any(isinstance(o, Doubt) for o in two.outputs):
            return None
        said = Notice(seq, f"{self.players[pos.side]}'s move was not seen on a still table "
                           f"before {self.players[1 - pos.side]} moved: both moves are judged "
                           f"in turn", "warning")
        return Step(two.state, (said, *one.outputs, *two.outputs))

    def _caught_up(self, state: JungleState, scene: Scene, seen: TokenReading,
                   moved: list[int], vanished: list[int], on_board: Mapping[int, int],
                   seq: int, t: float | None) -> Step[JungleState] | None:
        """Three or more tokens moved since the last table judged (tables in doubt or never
        still between): the turns in between, each side in turn (:func:`catch_up`), judged in
        turn; a foul only as the last of them, after the moves before it stand (the table as
        it stood before that move is the accepted one). None when no such turns explain it,
        or they end in a foul while a token is not seen (a foul needs a complete reading)."""
        pos = self.position(state)
        found = catch_up(pos, {c: (on_board[c], seen.squares[c]) for c in moved}, vanished)
        if found is None:
            return None
        captured = set(vanished) & {pos.board[seen.squares[c]] for c in moved}
        if not found.legal and set(vanished) - captured:
            return None
        # the moves that stand; a side's moving twice leaves both its last moves in question
        stand = found.order if found.legal else found.order[:-2 if found.twice else -1]
        back = [c for c in found.order if c not in stand]
        table = scene
        for c in back:  # the table before the foul: those tokens on the squares they left
            table = _token_back(table, seen.index[c], on_board[c])
        outputs: list[Event] = [Notice(seq, f"{len(moved)} moves were made while the table was "
                                            "not judged: they are judged in turn", "warning")]
        cur = state
        # the moves that stand, then a foul's move (judged against the table they left)
        for c in stand if found.twice else found.order:
            step = self._judge_move(cur, self.players[side_of(c)], g.SQUARE_NAMES[on_board[c]],
                                    g.SQUARE_NAMES[seen.squares[c]], seq, t,
                                    table if c == stand[-1] else None, (seen.index[c],))
            outputs.extend(step.outputs)
            cur = step.state
        if found.twice:
            twice = self._moved_twice(cur, seen, back, on_board, seq)
            if twice is None:
                return None
            outputs.extend(twice.outputs)
        return Step(cur, tuple(outputs))

    def _moved_twice(self, state: JungleState, seen: TokenReading, moved: list[int],
                     on_board: Mapping[int, int], seq: int) -> Step[JungleState] | None:
        """Two tokens of one side moved since the last table judged (the first's table never
        seen still, or its reading in doubt), each a legal move in some order were it that
        side's turn each time: that side moved twice, a ``turn`` foul of its player whichever
        came first (the table as it was stands). None otherwise."""
        side = side_of(moved[0])
        if side_of(moved[1]) != side:
            return None
        for a, b in (moved, moved[::-1]):
            pos = self.position(state)
            if pos.side != side:
                pos.pass_turn()
            first = make_move(on_board[a], seen.squares[a])
            if pos.check(first) is not None:
                continue
            pos.push(first)
            pos.pass_turn()
            if pos.check(make_move(on_board[b], seen.squares[b])) is not None:
                continue
            player = self.players[side]
            said = " and ".join(f"the {piece_name(c)} {g.SQUARE_NAMES[on_board[c]]}-"
                                f"{g.SQUARE_NAMES[seen.squares[c]]}" for c in moved)
            other = self.players[1 - side]
            return Step(state, (Judgement("turn", _sentence(
                f"{player} moved two animals ({said}); a turn is one move, then it is "
                f"{other}'s turn: put them back and move one"), player,
                tuple(seen.index[c] for c in moved),
                g.square_centre_mm(seen.squares[b])).verdict(seq),))
        return None

    def _foul_without(self, state: JungleState, missing: list[int], step: Step[JungleState],
                      move: tuple[str, str, str], seq: int, t: float | None) -> bool:
        """Whether the foul ``step`` found (with the tokens ``missing`` from the reading taken
        to stand where they stood) is the same foul with them off the board: then it rests on
        the token that moved, and a token not seen cannot change it."""
        pos = self.position(state)
        for code in missing:
            sq = pos.where[code]
            if sq < 0:
                return False
            pos.board[sq] = 0
            pos.where[code] = -1
            pos.counts[side_of(code)] -= 1
        player, fr, to = move
        without = self._judge_move(replace(state, position=pos.text()), player, fr, to, seq, t,
                                   None).verdicts
        return [(v.legal, v.rule) for v in without] == [(v.legal, v.rule) for v in step.verdicts]

    def _judge_misread(self, state: JungleState, scene: Scene, misread: Misread, seq: int,
                       t: float | None) -> Step[JungleState]:
        """A reading with a token's marker misread (see :func:`misread_tokens`): judged with
        that token taken for the animal that stood on its square; a guess, so it may only
        confirm a legal move (or nothing moved); anything else is a doubt."""
        step = self._judge_scene(state, misread.scene, seq, t)
        if all((isinstance(o, Verdict) and o.legal) or isinstance(o, Notice | Winner)
               for o in step.outputs):
            return step
        pos = self.position(state)
        sq = g.SQUARE_NAMES[misread.square]
        return Step(state, (Doubt(seq, self.players[pos.side], (misread.index,),
                                  g.square_centre_mm(misread.square), _sentence(
                                      f"The token on {sq} reads as {self._animal(misread.read)}, "
                                      f"but {self._animal(misread.was)} stood there and is not "
                                      f"seen: is its marker misread")[:-1] + "?"),))

    def _animal(self, code: int) -> str:
        return f"the {piece_name(code)} of {self.players[side_of(code)]}"

    def accept(self, state: JungleState, scene: Scene, seq: int) -> Step[JungleState]:
        """The table as seen becomes the position (tokens snapped to their nearest squares);
        the side to move stays."""
        seen = read_tokens(scene, snap=True, names=(self.players[0], self.players[1]))
        if seen.problem is not None:
            bad = seen.problem
            return Step(state, (Verdict(seq, None, False, "setup",
                                        _sentence(f"cannot accept this table: {bad.reason}"),
                                        bad.pieces, bad.where),))
        pos = self.position(state)
        board = [0] * g.N_SQUARES
        for code, sq in seen.squares.items():
            board[sq] = code
        text = board_text(board, pos.side)
        new_pos = Position(text, self.rules)
        if new_pos.status():
            return Step(state, (Verdict(seq, None, False, "setup",
                                        "Cannot accept this table: an animal stands in the water "
                                        "or in its own den."),))
        new = replace(state, table=scene, position=text, history=(*state.history, new_pos.key()),
                      outcome=None, unseen_sides=frozenset())
        outputs: list[Event] = [Verdict(seq, None, True, "ok",
                                        f"The table is accepted as it stands; "
                                        f"{self.players[new_pos.side]} to move.")]
        outcome = new_pos.outcome()
        if outcome is not None:
            new = replace(new, outcome=(outcome.termination.value, outcome.winner))
            outputs.append(Winner(self.players[outcome.winner], seq))
        return Step(new, tuple(outputs))

    # ------------------------------------------------------------------ dashboard
    def describe(self, state: JungleState) -> dict[str, Any]:
        """The board (text form and by square), whose turn, the last move, repetition counts."""
        pos = self.position(state)
        squares = {g.SQUARE_NAMES[sq]: {"player": self.players[side_of(c)],
                                        "side": side_of(c), "animal": piece_name(c),
                                        "rank": self.rules.rank(piece_name(c)),
                                        "token": 49 + c}
                   for sq, c in pos.pieces()}
        out: dict[str, Any] = {
            "board": state.position,
            "squares": squares,
            "turn": None if state.outcome else self.players[pos.side],
            "last_move": state.moves[-1] if state.moves else None,
            "moves": list(state.moves),
            "repetitions": pos.repetitions(),
            "repetition_counts": pos.repetition_counts(),
            "variants": self.rules.describe_variants(),
            "winner": None if state.outcome is None else self.players[state.outcome[1]],
            "termination": None if state.outcome is None else state.outcome[0],
            "legal_moves": [] if state.outcome else [move_text(m) for m in pos.legal_moves()],
        }
        if self.timer_s is not None:
            out["timer_s"] = self.timer_s
            out["turn_started"] = state.turn_started
            out["missed_turns"] = {self.players[i]: state.missed[i] for i in (0, 1)}
        return out


def after_doubt(step: Step[JungleState], before: JungleState, scene: Scene, pos: Position,
                players: tuple[str, ...], seq: int) -> Step[JungleState]:
    """A scene's step with what the doubts since the last move judged leave unsure.

    A reading doubted with a token of a side not seen marks that side in
    :attr:`JungleState.unseen_sides` (it may have moved there unseen); a move judged legal
    clears them. While a side is marked, a foul that it would undo by a move made unseen
    is a doubt, not a foul (the state as it was): ``turn`` when it was that side's turn (a
    chain of "not your turn" after one misread is no referee's), and ``moves`` (more tokens
    moved than turns judged) whenever some side is marked.
    """
    verdicts = [o for o in step.outputs if isinstance(o, Verdict)]
    if any(isinstance(o, Doubt) for o in step.outputs):
        seen = read_tokens(scene).squares
        sides = {side_of(code) for _, code in pos.pieces() if code not in seen}
        return Step(replace(step.state, unseen_sides=before.unseen_sides | sides), step.outputs)
    bad = next((v for v in verdicts if not v.legal and (
        (v.rule == "turn" and pos.side in before.unseen_sides)
        or (v.rule == "moves" and before.unseen_sides))), None)
    if bad is not None:
        return Step(before, (Doubt(seq, bad.player or players[pos.side], bad.pieces, bad.where,
                                   bad.reason[:-1] + f", but a table before was in doubt and "
                                   f"{players[pos.side]} may have moved there unseen: fix the "
                                   "reading or accept the table."),))
    if verdicts and all(v.legal for v in verdicts):
        return Step(replace(step.state, unseen_sides=frozenset()), step.outputs)
    return step


def _token_back(scene: Scene, index: int, square: int) -> Scene:
    """``scene`` with its piece at ``index`` put back on the centre of ``square`` (the table
    before that token's move)."""
    x, y = g.square_centre_mm(square)
    return replace(scene, pieces=(*scene.pieces[:index],
                                  replace(scene.pieces[index], x_mm=x, y_mm=y),
                                  *scene.pieces[index + 1:]))


def _sentence(s: str) -> str:
    s = s[0].upper() + s[1:]
    return s if s.endswith(".") else s + "."


def _ending(outcome: Outcome, players: tuple[str, ...]) -> str:
    w, loser = players[outcome.winner], players[1 - outcome.winner]
    if outcome.termination is Termination.DEN:
        return f"{w} entered {loser}'s den and wins"
    if outcome.termination is Termination.ALL_CAPTURED:
        return f"{w} captured all of {loser}'s animals and wins"
    return f"{loser} has no legal move left; {w} wins"


@dataclass(frozen=True)
class TokenReading:
    """Tokens of a scene mapped to squares.

    Attributes:
        squares: piece code -> square, for the tokens on the board.
        index: piece code -> index of its token in the scene.
        problem: Why the scene cannot be read as a position (two tokens of one animal, a token
            between squares, two on one square): rule code, reason, scene indices, where.
    """

    squares: dict[int, int]
    index: dict[int, int]
    problem: Judgement | None = None


@dataclass(frozen=True)
class Misread:
    """A token whose marker reads as another animal than the one standing on its square.

    Attributes:
        scene: The reading with that token's marker put right.
        index: The token's index in the reading.
        square: Its square.
        read: The animal code its marker reads as.
        was: The animal code of the token that stood there (not seen elsewhere).
    """

    scene: Scene
    index: int
    square: int
    read: int
    was: int


def misread_tokens(scene: Scene, pos: Position) -> Misread | None:
    """A token of the reading standing on the square of an animal that is not seen anywhere,
    whose marker reads as an animal seen twice or as one that would be a second token moved:
    the likeliest explanation is that marker misread (a token keeps its square unless it is
    the one moved). None when the reading has no such token.

    >>> from tabletop.scene import Piece
    >>> start = Position()
    >>> board = {code: sq for sq, code in start.pieces()}
    >>> def tok(code, sq):
    ...     return Piece("token", *g.square_centre_mm(sq), id=49 + code)
    >>> tokens = [tok(c, sq) for c, sq in board.items()]
    >>> rat, cat = 1, 2  # the first player's rat read where its cat stands
    >>> tokens[list(board).index(cat)] = tok(rat, board[cat])
    >>> m = misread_tokens(Scene(tuple(tokens)), start)
    >>> (m.read, m.was, g.SQUARE_NAMES[m.square])
    (1, 2, 'b2')
    """
    codes = Counter(token_code(p) for p in scene.pieces)
    on_board = {code: sq for sq, code in pos.pieces()}
    for i, p in enumerate(scene.pieces):
        code = token_code(p)
        if code is None:
            continue
        hit = g.locate_mm(p.x_mm, p.y_mm)
        if hit.status != "on" or hit.square is None:
            continue
        was = pos.board[hit.square]
        if not was or was == code or codes[was]:
            continue
        # the marker's own animal seen twice, or standing elsewhere on the board (not here):
        # read as it is, two tokens would have moved
        elsewhere = on_board.get(code)
        if codes[code] > 1 or (elsewhere is not None and elsewhere != hit.square
                               and _moved_elsewhere(scene, pos, i)):
            fixed = replace(scene, pieces=tuple(replace(q, id=49 + was) if j == i else q
                                                for j, q in enumerate(scene.pieces)))
            return Misread(fixed, i, hit.square, code, was)
    return None


def _moved_elsewhere(scene: Scene, pos: Position, skip: int) -> bool:
    """Whether some token of the reading other than ``skip`` stands off its square in the
    position (a move was made by another token)."""
    on_board = {code: sq for sq, code in pos.pieces()}
    for j, q in enumerate(scene.pieces):
        code = token_code(q)
        if j == skip or code is None or code not in on_board:
            continue
        hit = g.locate_mm(q.x_mm, q.y_mm)
        if hit.square is not None and hit.square != on_board[code]:
            return True
    return False


def token_code(piece: Piece) -> int | None:
    """The piece code (1..16) of a Jungle token, or None for any other piece."""
    if piece.kind != "token" or piece.id is None or piece.id not in JUNGLE_TOKEN_IDS:
        return None
    return piece.id - 49


def read_tokens(scene: Scene, snap: bool = False,
                names: tuple[str, str] = ("the first player", "the second player")
                ) -> TokenReading:
    """Maps the Jungle tokens of a scene (board millimetre frame) to squares.

    Tokens off the board (put aside) are left out; other pieces are ignored.

    Args:
        scene: The scene.
        snap: Take a token between squares as standing on the nearest one.
        names: The players' names, for the sentences.
    """
    squares: dict[int, int] = {}
    index: dict[int, int] = {}
    by_square: dict[int, int] = {}
    for i, p in enumerate(scene.pieces):
        code = token_code(p)
        if code is None:
            continue
        name = f"{ANIMALS[kind_of(code) - 1]} of {names[side_of(code)]}"
        if code in index:
            return TokenReading(squares, index, Judgement(
                "token", f"two tokens carry marker {p.id} (the {name})", None, (index[code], i),
                (p.x_mm, p.y_mm)))
        index[code] = i
        hit = g.locate_mm(p.x_mm, p.y_mm)
        if hit.status == "off" or hit.square is None:
            continue
        if hit.status == "between" and not snap:
            return TokenReading(squares, index, Judgement(
                "between", f"the {ANIMALS[kind_of(code) - 1]} token of {names[side_of(code)]} "
                           "sits between squares near "
                           f"{g.SQUARE_NAMES[hit.square]}; put it in the middle of one square",
                None, (i,), (p.x_mm, p.y_mm)))
        if hit.square in by_square:
            other = by_square[hit.square]
            return TokenReading(squares, index, Judgement(
                "overlap", f"two tokens stand on {g.SQUARE_NAMES[hit.square]}", None,
                (index[other], i), g.square_centre_mm(hit.square)))
        by_square[hit.square] = code
        squares[code] = hit.square
    return TokenReading(squares, index)

__all__ = ["Jungle", "JungleState", "TokenReading", "move_squares", "read_tokens", "token_code"]
