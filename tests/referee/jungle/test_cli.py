"""``tabletop perft jungle ...``: counts, move lists, position files, variants, clear errors."""

from __future__ import annotations

from pathlib import Path

import pytest

from referee.jungle.perft import read_perft_file
from tabletop.cli import main

DATA = Path(__file__).parent / "data"


def run(capsys, *args: str) -> tuple[int, str, str]:
    try:
        rc = main(["perft", "jungle", *args])
    except SystemExit as exc:  # argparse's own usage errors
        rc = int(exc.code or 0)
    out = capsys.readouterr()
    return rc, out.out, out.err


def test_counts_from_the_start(capsys):
    assert run(capsys, "3") == (0, "12240\n", "")
    assert run(capsys, "0") == (0, "1\n", "")


def test_after_moves_and_with_variants(capsys):
    cases = {(c.variants, c.moves): c.counts for c in read_perft_file(DATA / "positions.perft")}
    moves = "g3g4 g7g6 g4g5"
    assert run(capsys, "2", "--moves", moves)[1] == f"{cases[((), moves)][2]}\n"
    got = run(capsys, "2", "--moves", moves, "--variant", "old-elephant")[1]
    assert got == f"{cases[(('elephant-captures-rat',), moves)][2]}\n"


def test_positions_file_prints_one_count_a_line(capsys):
    cases = {c.moves: c.counts for c in read_perft_file(DATA / "positions.perft")
             if not c.variants}
    cases[""] = {1: 24, 2: 576}
    rc, out, _ = run(capsys, "2", "--positions", str(DATA / "positions.txt"))
    lines = [ln for ln in (DATA / "positions.txt").read_text().splitlines()
             if ln.strip() and not ln.startswith("#")]
    want = [cases["" if ln == "-" else ln][2] for ln in lines]
    assert rc == 0 and out.split() == [str(n) for n in want]


def test_divide_sums_to_the_count(capsys):
    rc, out, _ = run(capsys, "2", "--divide")
    lines = out.splitlines()
    assert rc == 0 and len(lines) == 25 and lines[-1] == "576"
    assert sum(int(ln.split(": ")[1]) for ln in lines[:-1]) == 576


def test_help_says_what_perft_counts(capsys):
    with pytest.raises(SystemExit):
        main(["perft", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "repetition rule is NOT applied" in text and "den entry" in text
    assert "last piece" in text


@pytest.mark.parametrize(("args", "code", "message"), [
    (["x"], 2, "DEPTH must be a whole number"),
    (["-1"], 2, "DEPTH must be 0..20"),
    (["2", "--moves", "g3g5"], 1, "move 1 (g3g5) is illegal"),
    (["2", "--moves", "g3g4 zz"], 1, "'zz' is not a move"),
    (["2", "--variant", "cats-fly"], 2, "unknown Jungle variant 'cats-fly'"),
    (["2", "--positions", "/no/such/file"], 1, "cannot read"),
])
def test_errors_are_one_line(capsys, args, code, message):
    rc, out, err = run(capsys, *args)
    assert rc == code and out == ""
    assert message in err and len(err.strip().splitlines()) == 1


def test_a_bad_line_in_a_positions_file_is_named(capsys, tmp_path):
    f = tmp_path / "p.txt"
    f.write_text("g3g4\n\ng3g4 g3g4\n")
    rc, out, err = run(capsys, "1", "--positions", str(f))
    assert rc == 1 and out == "" and f"{f}: line 3:" in err and "is illegal" in err
