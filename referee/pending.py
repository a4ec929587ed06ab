"""An illegal verdict not yet put right: judged once, told once, never chained.

A referee that rules one foul and then, while the table is not put right, rules every later
move against it ("not your turn", "only one worm may move"...) derails after one error (issue
13). Every game whose moves build on the last accepted table settles each step's verdicts the
same way (:meth:`SettlesFouls.settle`):

- a legal verdict clears what was pending;
- an illegal verdict starts to be pending when nothing is, or when the game says it is a new
  foul in its own right (:meth:`SettlesFouls.new_foul`: the variant's hook);
- any other illegal verdict (another player's move beside it, a refused roll or bid) is not
  ruled: the table is told once, in the game's words, what is pending;
- a table back as it was accepted (a scene that changes nothing) puts the foul right.

The state of such a game carries ``pending`` (a :class:`Pending` or None) and ``pending_told``.
"""

from __future__ import annotations

from abc import abstractmethod
from dataclasses import dataclass, replace
from typing import Generic, TypeVar

from referee.base import GameState, Step
from tabletop.events import Doubt, Event, Notice, SceneSeen, Verdict


@dataclass(frozen=True)
class Pending:
    """An illegal verdict not yet put right: its ``seq``, the player it faulted, its rule."""

    seq: int
    player: str | None
    rule: str


class PendingState(GameState):
    """A game's state that keeps an illegal verdict pending (a frozen dataclass with these two
    fields)."""

    pending: Pending | None
    """The illegal verdict not yet put right (None: none)."""
    pending_told: bool
    """Whether the table was told, once, that it is pending."""


T = TypeVar("T", bound=PendingState)
"""A game's state type."""


class SettlesFouls(Generic[T]):
    """Mixin of a :class:`referee.base.Game` whose state keeps an illegal verdict pending.

    Hooks: :meth:`new_foul` (whether an illegal verdict is judged while another is pending),
    :meth:`pending_notice` (the sentence told once), :meth:`on_verdict` (what any verdict
    clears in the game's own state).
    """

    @abstractmethod
    def new_foul(self, state: T, verdict: Verdict, pending: Pending, refused: bool) -> bool:
        """Whether ``verdict`` (illegal) is a foul of its own while ``pending`` is not put right
        (then it replaces it); False: it is not ruled (the table is told once).

        Args:
            state: The state before the event.
            verdict: The first verdict the event gave.
            pending: The foul pending before the event.
            refused: The event was an input refused (a roll, a bid), not a table read.
        """

    @abstractmethod
    def pending_notice(self, seq: int, pending: Pending) -> Notice:
        """The notice told once while ``pending`` is not put right and the players go on."""

    def on_verdict(self, step: Step[T]) -> Step[T]:
        """The step as any verdict leaves it (a game clears what a verdict answers)."""
        return step

    def settle(self, state: T, step: Step[T], seq: int, event: Event,
               refused: bool = False) -> Step[T]:
        """The step of ``event`` with its verdicts settled against the foul pending (see the
        module doc); ``refused``: ``event`` is an input that may be refused (a roll, a bid)."""
        if isinstance(event, SceneSeen) and step.state.pending is not None and \
                not any(isinstance(o, Verdict | Doubt) for o in step.outputs):
            # the table is back as it was accepted: the foul is put right
            return Step(replace(step.state, pending=None, pending_told=False))
        verdicts = [o for o in step.outputs if isinstance(o, Verdict)]
        if not verdicts:
            return step
        step = self.on_verdict(step)
        v = verdicts[0]
        if v.legal:
            return Step(replace(step.state, pending=None, pending_told=False), step.outputs)
        pending = state.pending
        if pending is None or self.new_foul(state, v, pending, refused):
            return Step(replace(step.state, pending=Pending(seq, v.player, v.rule),
                                pending_told=False), step.outputs)
        if state.pending_told:
            return Step(state)
        return Step(replace(state, pending_told=True), (self.pending_notice(seq, pending),))
