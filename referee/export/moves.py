"""A game as a readable move list: one numbered line per turn.

Worm Derby lines say the roll, the steps and the way the worm went (``forward (tail to
head)``: coins taken from the tail and laid ahead of the head), its heading on the diagram and
where its head is; Jungle lines give the move as ``a3a4``; a foul is marked ``✘`` with its rule
and reason, and an undone verdict ``[undone]``.

>>> from tabletop.events import Roll, Setup
>>> print(moves_text([Setup("worm-derby", ("suns", "moons")), Roll("suns", "4")]), end="")
# Worm Derby (basic): suns, moons
# Written by tabletop referee. One line per event; ✘ marks a foul, [undone] a verdict taken back.
1. suns rolls 4
"""

from __future__ import annotations

from collections.abc import Iterable

from referee.export.walk import Entry, walk
from tabletop.events import Event

QUIET = ("accept",)


def _line(e: Entry) -> str:
    text = e.text
    if e.legal is False:
        bad = next(v for v in e.verdicts if not v.legal)
        text = f"✘ {e.player + ': ' if e.player else ''}{bad.rule}: {bad.reason}"
        if e.kind == "roll":
            text = f"{e.text} ✘ {bad.rule}: {bad.reason}"
    return text + ("  [undone]" if e.undone else "")


def moves_text(events: Iterable[Event]) -> str:
    """The move list of a record."""
    entries = walk(events)
    lines = [f"# {entries[0].text}" if entries else "# (empty record)",
             "# Written by tabletop referee. One line per event; ✘ marks a foul, "
             "[undone] a verdict taken back."]
    n = 0
    rest = entries[1:]
    i = 0
    while i < len(rest):
        e = rest[i]
        i += 1
        if e.kind == "scene" and e.player is None and e.legal is not False:
            lines.append(f"   {e.text}")  # the table set up, before any turn
            continue
        n += 1
        line = _line(e)
        nxt = rest[i] if i < len(rest) else None
        if (e.kind == "roll" and e.legal is not False and not e.undone and nxt is not None
                and nxt.player == e.player and nxt.kind in ("scene", "correction")
                and nxt.legal and not nxt.undone and nxt.move):
            line = f"{line}; {nxt.text.split(': ', 1)[-1]}"  # a turn: the roll and its move
            i += 1
        lines.append(f"{n}. {line}")
    return "\n".join(lines) + "\n"
