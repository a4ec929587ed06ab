"""A first table with a worm read short in every reading and a post not seen (156617: red's
tail and a start post not seen, the first table stood in doubt the whole game): the worm is
completed on its line and the table stands, the post not seen told beside the verdict, when a
line of posts stands (here the finish line); with neither line known (one post of four seen)
it stays in doubt."""

from __future__ import annotations

from tabletop.events import Doubt, SceneSeen, Verdict
from tests.referee.worm_up.tables import FINISH, START, Game, table


def _first(g: Game, posts) -> tuple:
    worms = dict(g.worms)
    worms["red"] = worms["red"][1:]  # its tail not seen
    out = g.push(SceneSeen(table(worms, posts)))
    out += g.push(SceneSeen(table(worms, posts)))  # read so again
    return out


def test_a_worm_short_and_a_start_post_not_seen_stand_with_the_finish_line_seen():
    g = Game()
    out = _first(g, (START[0], *FINISH))
    assert any(isinstance(e, Verdict) and e.legal for e in out), out
    assert not any(isinstance(e, Verdict) and not e.legal for e in out), out
    assert any(isinstance(e, Doubt) and e.player == "red" for e in out), out  # where it is taken
    assert verdict_after_bids(g)


def verdict_after_bids(g: Game) -> bool:
    out = g.bids(red="4", yellow="5", green="6")
    return not any(isinstance(e, Verdict) and not e.legal for e in out)


def test_a_worm_short_with_one_post_of_four_seen_stays_in_doubt():
    g = Game()
    out = _first(g, (FINISH[1],))
    assert not any(isinstance(e, Verdict) for e in out), out
