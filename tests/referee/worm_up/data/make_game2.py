"""Writes ``game2.jsonl``: five players, vision noise, the X's post moves and its corner cases.

Run from the repository root: ``.venv/bin/python -m tests.referee.worm_up.data.make_game2``.
Every scene's positions carry up to 1.5 mm of (seeded) noise and are rounded to 0.1 mm, as
vision gives them, and a coin and a token lie on the table (both ignored). The expected
outputs (``game2.expected.jsonl``) were checked by hand against the comments below.
"""

from __future__ import annotations

import math
import random
from pathlib import Path

from tabletop.events import Accept, Bid, Correction, SceneSeen, Setup, dumps_record
from tabletop.scene import Piece, Scene
from tests.referee.worm_up.tables import FINISH, START, advance, start_table

HERE = Path(__file__).resolve().parent
PLAYERS = ("red", "yellow", "green", "blue", "purple")


def rotate(p, about, deg):
    r = math.radians(deg)
    dx, dy = p[0] - about[0], p[1] - about[1]
    return (about[0] + dx * math.cos(r) - dy * math.sin(r),
            about[1] + dx * math.sin(r) + dy * math.cos(r))


def main() -> None:
    rng = random.Random(2)
    worms = start_table(PLAYERS)
    posts = [*START, *FINISH]
    events: list = [Setup("worm-up", PLAYERS, {})]

    def noisy(p):
        return (round(p[0] + rng.uniform(-1.5, 1.5), 1), round(p[1] + rng.uniform(-1.5, 1.5), 1))

    def scene_of(ws=None, ps=None):
        pieces = [Piece("segment", *noisy(c), color=colour, confidence=0.9)
                  for colour, pts in (ws or worms).items() for c in pts]
        pieces += [Piece("post", *noisy(c)) for c in (ps or posts)]
        pieces += [Piece("coin", 420.0, -80.0, suit="moons"), Piece("token", 430.0, 40.0, id=3)]
        return Scene(tuple(pieces))

    def scene(ws=None, ps=None):
        events.append(SceneSeen(scene_of(ws, ps)))

    def moved(player, k, heading=90.0):
        new = dict(worms)
        new[player] = advance(worms[player], k, heading)
        return new

    def bids(text):
        for word in text.split():
            player, _, tile = word.partition("=")
            tile, _, number = tile.partition(":")
            events.append(Bid(player, tile, int(number) if number else None))

    # the setup: purple's worm lies 40 mm too far back; the players accept the table anyway
    late = dict(worms)
    late["purple"] = [(x, y - 40.0) for x, y in worms["purple"]]
    scene(late)                               # setup: purple's head is too far behind the line
    events.append(Accept())                   # ok: accepted as the start
    worms = late
    scene()                                   # no verdict: the same table, new noise
    # round 1: every number and an X: purple's X has no free number
    bids("red=4 yellow=5 green=6 blue=7 purple=X")
    scene(moved("purple", 4))                 # turn: purple's X has no free number
    a, b = posts[2], posts[3]
    scene(ps=[*START, rotate(a, b, 5.0), b])  # ok: purple moves a finish post
    posts = [*START, rotate(a, b, 5.0), b]
    for player, k in (("red", 4), ("yellow", 5), ("green", 6), ("blue", 7)):
        worms = moved(player, k)
        scene()                               # ok: each in order
    # round 2: purple's X sits out; red and yellow cancel (X); green 4, blue 5, purple 7
    bids("red=X yellow=X green=4 blue=5 purple=X")  # purple's X sits out: bid refused
    bids("purple=7")                          # ok: all in; red and yellow cancel
    a, b = posts[2], posts[3]
    scene(ps=[*START, a, rotate(b, a, -4.0)])  # post: no successful X this round
    worms = moved("green", 4, [90, 100, 110, 110])
    scene()                                   # ok: green 4, bending left
    worms = moved("blue", 5)
    scene()                                   # ok: blue 5
    worms = moved("purple", 7)
    extra = scene_of()
    events.append(SceneSeen(extra.with_piece(Piece("segment", 600.0, 300.0, color="purple"))))
    # pieces: purple has 8 segments (vision saw a stray purple blob)
    events.append(Correction("remove", index=len(extra.pieces)))  # ok: purple 7
    # round 3 (green's 4 sits out): blue and green cancel (6); purple 4, red 5, yellow X as 7
    bids("red=5 yellow=X green=6 blue=6 purple=4")
    worms = moved("purple", 4)
    scene()                                   # ok: purple 4
    worms = moved("red", 5)
    scene()                                   # ok: red 5
    a, b = posts[2], posts[3]
    both = [*START, rotate(a, b, 3.0), (b[0] + 30.0, b[1] + 20.0)]
    scene(moved("yellow", 7), both)           # post: both finish posts moved
    new_posts = [*START, a, rotate(b, a, 8.0)]
    worms = moved("yellow", 7)
    scene(ps=new_posts)                       # ok: yellow 7 (X as 7) and moves a finish post
    posts = new_posts
    (HERE / "game2.jsonl").write_text(dumps_record(events))


if __name__ == "__main__":
    main()
