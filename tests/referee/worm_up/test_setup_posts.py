"""The first table read with a post not seen or a phantom post: the posts that fit a start and
finish layout are taken (referee/worm_up/post_layout.py); a post not seen is a doubt said once."""

from __future__ import annotations

from tabletop.events import Bid, Doubt, SceneSeen, Verdict
from tabletop.scene import Piece
from tests.referee.worm_up.tables import FINISH, START, Game, advance, start_table, table, verdict


def _judged(posts):
    g = Game()
    return g, g.scene(posts=posts)


def test_a_finish_post_not_seen_does_not_stop_the_setup_and_is_doubted_once():
    g, out = _judged([*START, FINISH[0]])
    v, d = out
    assert isinstance(v, Verdict) and v.legal and v.rule == "ok"
    assert isinstance(d, Doubt) and "3 of the 4 posts" in d.reason and "finish post" in d.reason
    assert d.where == FINISH[1]  # the finish line drawn as the start line moved ahead
    described = g.referee.describe()
    assert described["phase"] == "bidding"
    assert described["start_line_mm"] == [list(p) for p in START]
    assert described["finish_line_mm"] is None
    assert described["worms"]["red"]["head_mm"] == list(g.worms["red"][-1])
    # the next table shows both finish posts ahead, one where the setup saw it and one where
    # the start line said: the finish line is known from then on
    g.bids(red="4", yellow="5", green="6")
    assert verdict(g.move("red", 4)).legal
    assert g.referee.describe()["finish_line_mm"] == [list(p) for p in FINISH]
    assert not any(isinstance(e, Doubt) for e in g.move("yellow", 5))


def test_a_start_post_not_seen_does_not_stop_the_setup():
    g, out = _judged([START[1], *FINISH])
    v, d = out
    assert v.legal and isinstance(d, Doubt) and "start post" in d.reason
    described = g.referee.describe()
    assert described["start_line_mm"] is None
    assert described["finish_line_mm"] == [list(p) for p in FINISH]
    assert described["worms"]["green"]["head_mm"] == list(g.worms["green"][-1])
    g.bids(red="4", yellow="5", green="6")
    assert verdict(g.move("red", 4)).legal


def test_a_phantom_post_is_left_out_of_the_layout():
    for phantom in ((150.0, 200.0), (-60.0, -80.0), (150.0, 5.0)):
        g, out = _judged([*START, phantom, *FINISH])
        assert [type(e) for e in out] == [Verdict] and out[0].legal, (phantom, out)
        described = g.referee.describe()
        assert described["start_line_mm"] == [list(p) for p in START]
        assert described["finish_line_mm"] == [list(p) for p in FINISH]


def test_a_setup_broken_under_every_layout_of_three_posts_is_a_doubt_not_a_foul():
    g = Game()
    worms = start_table(g.players)
    worms["red"] = [(x, y + 15.0) for x, y in worms["red"]]  # over the start line
    (d,) = g.scene(worms, [*START, FINISH[0]])
    assert isinstance(d, Doubt) and "4 posts" in d.reason
    assert g.referee.describe()["phase"] == "setup"


def test_a_crooked_worm_breaks_the_setup_whatever_the_posts_read():
    g = Game()
    worms = start_table(g.players)
    red = worms["red"]
    worms["red"] = [*red[:3], (red[3][0] + 11.0, red[3][1]), *red[4:]]
    v = verdict(g.scene(worms, [*START, FINISH[0]]))
    assert not v.legal and v.rule == "setup" and "straight line" in v.reason


def test_a_setup_judged_with_a_post_not_seen_is_replayed_to_the_same_verdicts():
    g, _ = _judged([*START, FINISH[0]])
    g.push(Bid("red", "4"))
    from referee.record import fold

    first = [e.to_json() for e in fold(g.events)]
    assert first == [e.to_json() for e in fold(list(g.events))]
    assert any(e["type"] == "doubt" for e in first)


def test_posts_just_ahead_of_the_heads_of_a_table_not_read_whole_are_no_finish_line():
    g = Game()
    near = [(-70.0, 15.0), (225.0, 14.0)]  # two shadows read as posts just past the heads
    v, d = g.scene(posts=near)
    assert v.legal and isinstance(d, Doubt)
    assert g.referee.describe()["finish_line_mm"] is None
    g.push(Bid("red", "4"))
    g.bids(yellow="5", green="6")
    g.posts = near
    v = verdict(g.move("red", 4))
    assert v.legal and g.referee.describe()["winner"] is None


def test_three_posts_whose_finish_is_within_a_worm_length_fit_no_layout():
    g = Game()
    (d,) = g.scene(posts=[*START, (150.0, 60.0)])
    assert isinstance(d, Doubt) and "4 posts" in d.reason


def test_a_phantom_post_behind_the_worms_does_not_turn_their_heads():
    g = Game()
    v, d = g.scene(posts=[(150.0, -260.0)])  # a shadow behind the tails, no real post seen
    assert v.legal and isinstance(d, Doubt) and "1 of the 4" in d.reason
    g.bids(red="4", yellow="5", green="6")
    g.posts = [(150.0, -260.0)]
    v = verdict(g.move("red", 4))  # the first move tells which end is the head
    assert v.legal and v.player == "red"
    assert verdict(g.move("yellow", 5)).legal


def _unsure(*posts, confidence=0.55):
    return [Piece("post", x, y, confidence=confidence) for x, y in posts]


def test_a_layout_of_posts_read_unsurely_among_phantoms_is_not_taken():
    # none of the 4 posts seen; 6 shadows read unsurely, two of them a start line just ahead
    # of the heads and two a finish line turned and longer (a black gingham under a blind):
    # no start line and no finish line is taken from them, the setup is a doubt
    g = Game()
    shadows = _unsure((-20.0, 13.0), (360.0, 13.0), (400.0, 260.0), (30.0, 195.0),
                      (-150.0, 260.0), (250.0, -180.0))
    v, d = g.push(SceneSeen(table(g.worms, (), shadows)))
    assert v.legal and isinstance(d, Doubt) and "read unsurely" in d.reason
    described = g.referee.describe()
    assert described["start_line_mm"] is None and described["finish_line_mm"] is None


def test_a_finish_line_chosen_among_phantoms_must_be_the_start_line_moved_ahead():
    # the 4 posts and 2 shadows, all read surely: the layout taken is the real one, not a
    # start line with a turned finish line of shadows
    g = Game()
    v, *rest = g.scene(posts=[*START, *FINISH, (30.0, 300.0), (420.0, 380.0)])
    assert v.legal, rest
    assert g.referee.describe()["finish_line_mm"] == [list(p) for p in FINISH]


def test_a_finish_line_seen_on_one_table_only_is_not_the_finish():
    # no post at the setup; one later table reads two shadows surely ahead, across the worms;
    # yellow's move then reaches the line they made, but they were never seen again: no winner
    g = Game()
    v, d = g.scene(posts=[])
    assert v.legal and isinstance(d, Doubt)
    g.bids(red="5", yellow="7", green="6")
    shadows = [(0.0, 135.0), (300.0, 135.0)]
    g.worms["red"] = advance(g.worms["red"], 5)
    assert verdict(g.scene(posts=shadows)).legal
    assert g.referee.describe()["finish_line_mm"] is None
    g.worms["green"] = advance(g.worms["green"], 6)
    assert verdict(g.scene(posts=[])).legal
    g.worms["yellow"] = advance(g.worms["yellow"], 7)
    assert verdict(g.scene(posts=[])).legal
    assert g.referee.describe()["winner"] is None
