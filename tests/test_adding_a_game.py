"""docs/adding-a-game.md, followed step by step with a toy game that lives only here.

The toy is Nim with coins: the players take turns; a player says how many coins they take (a
``take`` event, 1 to 3, its own event type), then the table is judged (it must hold that many
coins fewer). Whoever takes the last coin wins (with the ``misere`` option: loses). It is
registered once, below, exactly as a game's package registers itself in its ``__init__.py``;
no product file names it (the last test checks that), yet the command line, the API, the
dashboard, vision and the record format all know it.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, ClassVar

import numpy as np
import pytest

from referee.base import Game, GameState, Step
from referee.record import fold
from referee.registry import Flag, GameSpec, find_game, find_spec, register
from tabletop.cli import main
from tabletop.errors import RecordFormatError
from tabletop.events import (
    Event,
    SceneSeen,
    Setup,
    Verdict,
    Winner,
    add_type_loader,
    check_keys,
    parse_event,
    read_int,
    read_str,
    register_event_type,
)
from tabletop.scene import Scene
from tests.web import conftest as web

ROOT = Path(__file__).resolve().parents[1]
NAME = "toy-nim"
make_app, app, client = web.make_app, web.app, web.client  # the web tests' fixtures


# ----------------------------------------------------------------------------- 1. its events

@dataclass(frozen=True)
class Take(Event):
    """A player says how many coins they take: ``{"type": "take", "player": p, "count": 2}``."""

    type: ClassVar[str] = "take"
    is_input: ClassVar[bool] = True
    player: str
    count: int
    t: float | None = None

    @classmethod
    def from_json(cls, o: Mapping[str, Any], w: str, t: float | None) -> Event:
        check_keys(o, {"player", "count"}, w)
        return cls(read_str(o, "player", w), read_int(o, "count", w, 1, 3), t)


# ----------------------------------------------------------------------------- 2. its rules

@dataclass(frozen=True)
class NimState(GameState):
    table: Scene | None
    turn: int = 0
    taking: int | None = None
    over: bool = False


class Nim(Game[NimState]):
    """Take 1 to 3 coins a turn; the last coin wins (misère: loses)."""

    name = NAME
    aliases = ("coin-nim",)
    piece_kinds = ("coin",)
    option_names = frozenset({"sizes", "misere"})

    def initial_state(self) -> NimState:
        return NimState(None)

    def step(self, state: NimState, event: Event, seq: int) -> Step:
        player = self.players[state.turn]
        if state.over:
            return Step(state, (Verdict(seq, None, False, "over", "the game is over"),))
        if isinstance(event, Take):
            if event.player != player:
                return Step(state, (Verdict(seq, event.player, False, "turn",
                                            f"it is {player}'s turn"),))
            return Step(replace(state, taking=event.count))
        if isinstance(event, SceneSeen):
            return self._judge_table(state, event.scene, player, seq)
        return Step(state, (Verdict(seq, None, False, "unknown", f"no {event.type} in Nim"),))

    def _judge_table(self, state: NimState, new: Scene, player: str, seq: int) -> Step:
        if state.table is None:
            return Step(replace(state, table=new), (Verdict(seq, None, True, "start",
                                                            "the coins are laid out"),))
        before, after = len(state.table.of_kind("coin")), len(new.of_kind("coin"))
        if state.taking is None or before - after != state.taking:
            said = "nothing" if state.taking is None else str(state.taking)
            return Step(state, (Verdict(seq, player, False, "count",
                                        f"{player} said {said} but took {before - after}"),))
        verdict = Verdict(seq, player, True, "take", f"{player} took {state.taking}")
        nxt = replace(state, table=new, taking=None, turn=(state.turn + 1) % len(self.players))
        if after == 0:
            won = self.players[nxt.turn] if self.options.get("misere") else player
            return Step(replace(nxt, over=True), (verdict, Winner(won, seq)))
        return Step(nxt, (verdict,))

    def accept(self, state: NimState, scene: Scene, seq: int) -> Step:
        return Step(replace(state, table=scene), (Verdict(seq, None, True, "accept", "accepted"),))

    def describe(self, state: NimState) -> dict[str, Any]:
        left = len(state.table.of_kind("coin")) if state.table is not None else 0
        return {"turn": self.players[state.turn], "left": left,
                "shapes": [{"shape": "circle", "x": 0.0, "y": -40.0, "r": 12.0,
                            "colour": self.players[state.turn], "label": str(left)},
                           {"shape": "text", "x": 0.0, "y": -65.0, "text": f"{left} left"}]}


# ----------------------------------------------------------------------------- 3. register it

SPEC = register(GameSpec(
    Nim, title="Coin Nim", default_players=("ann", "bob"),
    options=(Flag("misere", "Misère: the last coin loses"),),
    inputs=("events",), turn_verb="play", events=(Take,)))


# ----------------------------------------------------------------------------- the checks

def coins(n: int) -> Scene:
    return Scene.from_json({"units": "mm", "hand": False, "pieces": [
        {"kind": "coin", "x": 30.0 * i, "y": 0.0} for i in range(n)]})


RECORD = [Setup(NAME, ("ann", "bob")), SceneSeen(coins(4)), Take("ann", 3),
          SceneSeen(coins(1)), Take("ann", 1), Take("bob", 1), SceneSeen(coins(0))]


def test_it_is_found_by_its_name_and_alias_with_its_spec():
    assert find_game(NAME) is Nim and find_game("coin-nim") is Nim
    assert find_spec(NAME) is SPEC and SPEC.piece_kinds == ("coin",)


def test_it_is_among_the_command_lines_games(capsys):
    for command in ("replay", "serve", "detect"):
        with pytest.raises(SystemExit):
            main([command, "--help"])
        assert NAME in "".join(capsys.readouterr().out.split())  # help wraps at hyphens


def test_its_event_type_parses_and_refuses_a_bad_count():
    event = parse_event({"type": "take", "player": "ann", "count": 2})
    assert event == Take("ann", 2) and event.to_json() == {"type": "take", "player": "ann",
                                                           "count": 2}
    with pytest.raises(RecordFormatError, match="'count' must be an integer 1..3"):
        parse_event({"type": "take", "player": "ann", "count": 9})


def test_a_games_event_type_is_loaded_when_a_record_names_it_first():
    @dataclass(frozen=True)
    class Knock(Event):
        type: ClassVar[str] = "toy-knock"
        is_input: ClassVar[bool] = True
        player: str
        t: float | None = None

        @classmethod
        def from_json(cls, o: Mapping[str, Any], w: str, t: float | None) -> Event:
            check_keys(o, {"player"}, w)
            return cls(read_str(o, "player", w), t)

    loaded: list[str] = []

    def load() -> None:  # as referee.registry loads every game's package
        loaded.append("games")
        register_event_type(Knock)

    add_type_loader(load)
    assert parse_event({"type": "toy-knock", "player": "ann"}) == Knock("ann")
    assert loaded == ["games"]
    with pytest.raises(RecordFormatError, match="unknown event type"):
        parse_event({"type": "toy-shout", "player": "ann"})


def test_a_short_record_replays_to_its_verdicts_and_winner(tmp_path, capsys):
    outputs = fold(RECORD)
    assert [(type(e).__name__, getattr(e, "rule", None)) for e in outputs] == [
        ("Verdict", "start"), ("Verdict", "take"), ("Verdict", "turn"), ("Verdict", "take"),
        ("Winner", None)]
    assert outputs[-1].player == "bob"
    path = tmp_path / "nim.jsonl"
    path.write_text("".join(e.dumps() + "\n" for e in RECORD))
    assert main(["referee", str(path)]) == 0
    printed = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [e["type"] for e in printed] == ["verdict"] * 4 + ["winner"]


def test_its_diagram_is_in_the_exported_svg(tmp_path):
    path = tmp_path / "nim.jsonl"
    path.write_text("".join(e.dumps() + "\n" for e in RECORD[:4]))
    assert main(["export", str(path), "--format", "svg", "-o", str(tmp_path / "nim.svg")]) == 0
    svg = (tmp_path / "nim.svg").read_text()
    assert ">1 left</text>" in svg and svg.count("<circle") == 1 + 1  # its mark, the last coin


def test_its_option_is_known_and_an_unknown_one_refused():
    misere = fold([Setup(NAME, ("ann", "bob"), {"misere": True}), *RECORD[1:]])
    assert misere[-1].player == "ann"
    with pytest.raises(RecordFormatError, match="unknown option 'misery'"):
        fold([Setup(NAME, ("ann", "bob"), {"misery": True})])


def test_the_api_lists_it_and_the_dashboard_offers_it_with_its_option(client):
    listed = {g["name"]: g for g in client.get("/api/rulesets").json}
    assert listed[NAME]["players"] == ["ann", "bob"] and listed[NAME]["events"] == ["take"]
    assert listed[NAME]["piece_kinds"] == ["coin"] and listed[NAME]["title"] == "Coin Nim"
    html = client.get("/").data.decode()
    assert f'<option value="{NAME}"' in html and f'name="{NAME}:misere"' in html


def test_vision_looks_for_its_kinds():
    from calibration.model import Calibration
    from live.vision_glue import load_vision

    cal = Calibration((320, 240), np.diag([2.0, 2.0, 1.0]))
    assert load_vision(cal, NAME).kinds == ("coin",)


@pytest.mark.browser
def test_a_setup_on_the_page_starts_it_and_vision_then_looks_for_its_kinds(make_app):
    playwright = pytest.importorskip("playwright.sync_api")
    from calibration.model import Calibration
    from live.vision_glue import load_vision
    from tests.web.fakes import ListSource
    from tests.web.servers import ThreadServer

    cal = Calibration((320, 240), np.diag([2.0, 2.0, 1.0]))
    app = make_app(SOURCE=ListSource([]), VISION=load_vision(cal, "worm-derby"))
    server = ThreadServer(app)
    try:
        with playwright.sync_playwright() as p:
            browser = p.chromium.launch(executable_path="/usr/bin/chromium",
                                        args=["--headless", "--no-sandbox", "--disable-gpu"])
            page = browser.new_page()
            page.goto(server.url + "/")
            page.click("#new-game summary")
            page.select_option("#setup-game", NAME)
            assert page.get_attribute("#setup-players", "placeholder") == "ann, bob"
            page.check(f"input[name='{NAME}:misere']")
            page.click("#setup-form button[type=submit]")
            page.wait_for_function(f"document.getElementById('game-title').textContent"
                                   f".startsWith('{NAME}')")
            table = server.app.extensions["tabletop"].table
            table.submit(SceneSeen(coins(2)))
            page.wait_for_function("(document.querySelector('#diagram .game-shapes') || {})"
                                   ".textContent === '22 left'")  # its label and its text
            assert page.locator("#diagram .game-shapes circle").count() == 1
            page.fill("#event-forms form[data-type=take] input[data-field=count]", "1")
            page.click("#event-forms form[data-type=take] button[type=submit]")
            page.wait_for_function("document.getElementById('message').textContent"
                                   ".includes('Logged: take')")
            browser.close()
        record = [json.loads(line) for line in table.record().splitlines()]
        setup = record[0]
        setup.pop("t", None)
        assert setup == {"type": "setup", "game": NAME, "players": ["ann", "bob"],
                         "options": {"misere": True}}
        assert server.app.extensions["tabletop"].pipeline.vision.kinds == ("coin",)
        take = next(e for e in record if e["type"] == "take")
        assert (take["player"], take["count"]) == ("ann", 1)  # typed in its own card
    finally:
        server.close()


def test_no_product_file_names_it():
    product = ("tabletop", "calibration", "vision", "referee", "live", "web")
    named = [str(p.relative_to(ROOT)) for d in product for p in (ROOT / d).rglob("*")
             if p.is_file() and p.suffix in (".py", ".js", ".html") and NAME in p.read_text()]
    assert named == []

