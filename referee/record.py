"""Folding a game record: the generic part of refereeing, shared by every game.

:class:`Referee` takes input events one at a time (the live pipeline) and :func:`fold` takes a
whole record (``tabletop referee``). Both give the same outputs for the same inputs. Handled here,
for every game alike:

- ``setup`` starts a game (a new :class:`referee.base.Game`);
- a ``scene`` with ``hand: true`` is never judged;
- ``correction`` fixes the last scene seen and the corrected scene is judged;
- ``accept`` makes the last scene seen the accepted table;
- ``undo`` takes back the last verdict (the state returns to before it).

``seq`` is the 0-based position of the input event in the record (output events in a record
count as positions too, so an exported log replays to the same ``seq`` values).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from referee.base import Game, GameState, Step
from referee.registry import make_game
from tabletop.errors import RecordFormatError
from tabletop.events import (
    Accept,
    Correction,
    Event,
    SceneSeen,
    Setup,
    Undo,
    Undone,
    Verdict,
)
from tabletop.scene import Scene


@dataclass(frozen=True)
class _Checkpoint:
    seq: int
    state_before: GameState


class Referee:
    """Folds input events into a game state, incrementally.

    >>> r = Referee()
    >>> r.game is None
    True
    """

    def __init__(self) -> None:
        self.game: Game[GameState] | None = None
        self.state: GameState | None = None  # None before the setup
        self.last_scene: Scene | None = None
        self.outputs: list[Event] = []
        self._history: list[_Checkpoint] = []

    def push(self, event: Event, seq: int) -> tuple[Event, ...]:
        """Judges one event and returns the output events it produced.

        Output events (a verdict read back from a record) are ignored: they are re-derived.

        Raises:
            RecordFormatError: an event before the setup, or a setup the game refuses.
        """
        if not event.is_input:
            return ()
        if isinstance(event, Setup):
            self.game = make_game(event)
            self.state = self.game.initial_state()
            self.last_scene = None
            self._history.clear()
            return ()
        if self.game is None or self.state is None:
            raise RecordFormatError("a record must begin with a setup event")
        game, state = self.game, self.state
        if isinstance(event, Undo):
            return self._emit(self._undo(seq))
        if isinstance(event, Accept):
            return self._accept(game, state, seq)
        if isinstance(event, Correction):
            corrected = self._corrected(event, seq)
            if isinstance(corrected, Verdict):
                return self._emit((corrected,))
            event = corrected
        if isinstance(event, SceneSeen):
            if event.scene.hand:
                return ()
            self.last_scene = event.scene
        return self._apply(state, game.step(state, event, seq), seq)

    def _accept(self, game: Game[GameState], state: GameState, seq: int) -> tuple[Event, ...]:
        """"Accept the table as it is now": the last scene seen becomes the accepted table."""
        if self.last_scene is None:
            return self._emit((Verdict(seq, None, False, "accept",
                                       "there is no table seen yet to accept"),))
        return self._apply(state, game.accept(state, self.last_scene, seq), seq)

    def _corrected(self, correction: Correction, seq: int) -> SceneSeen | Verdict:
        """The last scene seen with the correction made, to be judged (or why not)."""
        if self.last_scene is None:
            return Verdict(seq, None, False, "correction", "there is no scene yet to correct")
        try:
            scene = correction.apply(self.last_scene)
        except RecordFormatError as exc:
            return Verdict(seq, None, False, "correction", str(exc))
        return SceneSeen(scene, correction.t)

    def _apply(self, before: GameState, step: Step[GameState], seq: int) -> tuple[Event, ...]:
        if step.verdicts:
            self._history.append(_Checkpoint(seq, before))
        self.state = step.state
        return self._emit(step.outputs)

    def _undo(self, seq: int) -> tuple[Event, ...]:
        if not self._history:
            return (Verdict(seq, None, False, "undo", "there is no verdict to undo"),)
        cp = self._history.pop()
        self.state = cp.state_before
        return (Undone(seq, cp.seq),)

    def _emit(self, outputs: Iterable[Event]) -> tuple[Event, ...]:
        out = tuple(outputs)
        self.outputs.extend(out)
        return out

    def describe(self) -> dict[str, Any]:
        """A JSON summary for the dashboard: the game, players and game-specific state."""
        if self.game is None or self.state is None:
            return {"game": None, "players": []}
        return {"game": self.game.name, "players": list(self.game.players),
                **self.game.describe(self.state)}


def fold(events: Iterable[Event]) -> list[Event]:
    """Every output event of a record, in order (``seq`` = position in ``events``)."""
    referee = Referee()
    out: list[Event] = []
    for seq, event in enumerate(events):
        out.extend(referee.push(event, seq))
    return out
