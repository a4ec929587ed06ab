"""Writes ``game1.jsonl``: a whole game of Worm Up! for three players, fouls included.

Run from the repository root: ``.venv/bin/python -m tests.referee.worm_up.data.make_game1``.
The expected outputs (``game1.expected.jsonl``) were checked by hand against the comments
below and are what the regression test compares ``tabletop referee`` with; regenerate them
only after checking every changed line.
"""

from __future__ import annotations

import math
from pathlib import Path

from tabletop.events import Accept, Bid, Correction, SceneSeen, Setup, Undo, dumps_record
from tabletop.scene import Piece
from tests.referee.worm_up.tables import FINISH, START, advance, start_table, table

HERE = Path(__file__).resolve().parent
PLAYERS = ("red", "yellow", "blue")


def rotate(p, about, deg):
    r = math.radians(deg)
    dx, dy = p[0] - about[0], p[1] - about[1]
    return (about[0] + dx * math.cos(r) - dy * math.sin(r),
            about[1] + dx * math.sin(r) + dy * math.cos(r))


def main() -> None:
    worms = start_table(PLAYERS)
    posts = [*START, *FINISH]
    events = [Setup("worm-up", PLAYERS, {"strip_width_mm": 25})]

    def scene(ws=None, ps=None, hand=False):
        events.append(SceneSeen(table(ws or worms, ps or posts).with_hand(hand), t=None))

    def moved(player, k, heading=90.0):
        new = dict(worms)
        new[player] = advance(worms[player], k, heading)
        return new

    def bid(player, tile, number=None):
        events.append(Bid(player, tile, number))

    scene()                                   # setup: legal
    # round 1: yellow and blue cancel (5); red moves 4
    bid("red", "4"), bid("yellow", "5"), bid("blue", "5")
    scene(moved("blue", 5))                   # turn: blue's bid was cancelled
    worms = moved("red", 4)
    scene()                                   # ok: red 4
    # round 2: red's 4 sits out; yellow X (free 4 and 7), red 5, blue 6
    bid("red", "4")                           # bid: red's 4 sits out
    bid("red", "5"), bid("yellow", "X"), bid("blue", "6")
    worms = moved("yellow", 4, [90, 75, 75, 90])
    scene()                                   # ok: yellow X as 4 (before red's 5)
    scene(moved("blue", 6))                   # order: red (5) moves before blue
    worms = moved("red", 5)
    scene(hand=True)                          # a hand over the table: not judged
    scene()                                   # ok: red 5
    scene(moved("blue", 5))                   # steps: blue has moved 5 of 6 so far
    worms = moved("blue", 6)
    scene()                                   # ok: blue 6
    posts = [*START, rotate(FINISH[0], FINISH[1], 6.0), FINISH[1]]
    scene()                                   # ok: yellow moves a finish post (after the X)
    # round 3: red and yellow cancel (7); blue 4; a post nudged without an X
    bid("red", "7"), bid("yellow", "7"), bid("blue", "4")
    nudged = [*START, posts[2], rotate(posts[3], posts[2], 4.0)]
    scene(ps=nudged)                          # post: no successful X this round
    worms = moved("blue", 4)
    scene()                                   # ok: blue 4
    # round 4: yellow 5, red 6, blue X declared as 7 (free: 4 and 7)
    bid("red", "6"), bid("yellow", "5"), bid("blue", "X", 7)
    worms = moved("yellow", 5)
    scene()                                   # ok: yellow 5
    red6 = moved("red", 6, [90, 90, 60, 60, 90, 90])
    missing = table(red6, posts)
    missing_index = next(i for i, p in enumerate(missing.pieces)
                         if p.kind == "segment" and p.color == "red"
                         and p.centre_mm == red6["red"][-1])
    events.append(SceneSeen(missing.without_piece(missing_index)))  # pieces: red has 6
    events.append(Correction("add", piece=Piece("segment", *red6["red"][-1], color="red")))
    worms = red6                              # ok: the corrected scene, red 6
    split = moved("blue", 7)
    split["blue"] = [*split["blue"][:6], (split["blue"][6][0], split["blue"][6][1] + 30.0)]
    scene(split)                              # shape: blue's worm is split
    worms = moved("blue", 7)
    scene()                                   # ok: blue X as 7
    events.append(Undo())                     # undone: blue's move is taken back
    scene()                                   # ok: blue X as 7, again
    # round 5: red 7, yellow 6, blue 5 (blue's X sits out)
    bid("red", "7"), bid("yellow", "6"), bid("blue", "5")
    worms = moved("blue", 5)
    scene()                                   # ok: blue 5
    touch = moved("yellow", 6, [90, 90, 90, 90, 150, 150])
    scene(touch)                              # touch: yellow bends into red
    worms = moved("yellow", 6)
    scene()                                   # ok: yellow 6
    worms = moved("red", 7)
    scene()                                   # ok: red 7
    # round 6: red X (free: 4 and 6), yellow 5, blue 7
    bid("red", "X"), bid("yellow", "5"), bid("blue", "7")
    worms = moved("red", 6)
    scene()                                   # order: red's X took 6; yellow (5) moves first
    events.append(Accept())                   # the players accept red's early move anyway
    worms = moved("yellow", 5)
    scene()                                   # ok: yellow 5
    worms = moved("blue", 7)
    scene()                                   # ok: blue 7; round 7 next
    # round 7: red 4, yellow 7, blue 6: red reaches the finish line
    bid("red", "4"), bid("yellow", "7"), bid("blue", "6")
    worms = moved("red", 4)
    scene()                                   # ok: red 4 -> finish, winner
    scene(moved("yellow", 7))                 # not judged: the race is over
    (HERE / "game1.jsonl").write_text(dumps_record(events))


if __name__ == "__main__":
    main()
