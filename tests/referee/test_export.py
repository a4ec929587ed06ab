"""Exports of a game record: the move list, PPN, and the diagram as SVG and PNG."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from referee.export import walk
from referee.export.moves import moves_text
from referee.export.ppn import ppn_text
from tabletop.cli import main
from tabletop.events import read_record

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "sample_images" / "worm_derby" / "record.jsonl"
JUNGLE = ROOT / "tests" / "referee" / "jungle" / "data" / "game.jsonl"


def _header_and_movetext(text: str) -> tuple[str, str]:
    head, _, moves = text.partition("\n...\n")
    assert head.startswith("---\n")
    return head[4:], moves


def test_the_ppn_header_is_yaml_with_the_setup_and_what_it_cannot_say():
    yaml = pytest.importorskip("yaml")
    head, _ = _header_and_movetext(ppn_text(read_record(SAMPLE)))
    meta = yaml.safe_load(head)
    assert meta["SetUp"] == "None" and meta["GameType"]["Name"] == "Worm Derby"
    assert set(meta["Players"]) == {"suns", "moons"}
    assert "cannot express" in meta["Notes"]


def test_the_ppn_movetext_has_a_move_for_every_change_of_the_table():
    events = read_record(SAMPLE)
    _, moves = _header_and_movetext(ppn_text(events))
    named = re.findall(r"^(\w+)\. ", moves, flags=re.M)
    legal_moves = [e for e in walk(events) if e.move and e.legal]
    assert named[0] == "Setup" and len(named) == 1 + len(legal_moves)
    for e in legal_moves:  # each coin of each move, from where it was to where it went
        assert moves.count(")-(") >= e.move["steps"]
    setup_line = moves.splitlines()[0]
    assert setup_line.count("cbS@") == 5 and setup_line.count("tb@") == 3


def test_ppn_coordinates_are_inches_with_y_up():
    _, moves = _header_and_movetext(ppn_text(read_record(SAMPLE)))
    xs = [float(x) for x in re.findall(r"\((-?\d+\.\d{3}),", moves)]
    ys = [float(y) for y in re.findall(r",(-?\d+\.\d{3})\)", moves)]
    assert xs and all(0 < x < 40 for x in xs) and all(y <= 0 for y in ys)


def test_the_move_list_says_each_turn_roll_steps_and_way():
    text = moves_text(read_record(SAMPLE))
    assert "1. suns rolls 4; 4 steps forward (tail to head)" in text
    assert "✘ moons: steps:" in text


def test_jungle_moves_are_written_like_a3a4():
    text = moves_text(read_record(JUNGLE))
    assert re.search(r"^\d+\. red: g3g4$", text, flags=re.M)


def test_ppn_refuses_a_game_that_is_not_piecepack(tmp_path, capsys):
    out = tmp_path / "j.ppn"
    assert main(["export", str(JUNGLE), "--format", "ppn", "-o", str(out)]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--format moves" in err and str(JUNGLE) in err


@pytest.mark.parametrize(("fmt", "magic"), [("svg", b"<svg"), ("png", b"\x89PNG"),
                                            ("moves", b"# Worm Derby"), ("ppn", b"---\n")])
def test_export_command_writes_each_format(tmp_path, fmt, magic):
    out = tmp_path / f"game.{fmt}"
    assert main(["export", str(SAMPLE), "--format", fmt, "-o", str(out)]) == 0
    assert out.read_bytes().startswith(magic)


def test_export_of_a_missing_record_is_one_line_naming_it(tmp_path, capsys):
    assert main(["export", str(tmp_path / "gone.jsonl"), "--format", "moves", "-o",
                 str(tmp_path / "x")]) == 1
    assert "gone.jsonl" in capsys.readouterr().err
