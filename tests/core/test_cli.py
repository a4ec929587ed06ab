"""The command line: help, one-line errors, exit codes."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from tabletop.cli import main


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "tabletop", *args], capture_output=True,
                          text=True, timeout=120)


def test_help_lists_the_subcommands():
    r = run("--help")
    assert r.returncode == 0
    assert "referee" in r.stdout


def test_unknown_subcommand_is_a_usage_error_in_one_line():
    r = run("fly")
    assert r.returncode == 2
    assert len(r.stderr.strip().splitlines()) == 1 and "Traceback" not in r.stderr


def test_referee_of_a_missing_file_is_one_line_exit_1(tmp_path):
    r = run("referee", str(tmp_path / "nope.jsonl"))
    assert r.returncode == 1
    assert r.stderr.strip().startswith("tabletop: error:") and "nope.jsonl" in r.stderr
    assert len(r.stderr.strip().splitlines()) == 1


def test_referee_of_a_malformed_record_names_the_line(tmp_path):
    f = tmp_path / "bad.jsonl"
    f.write_text('{"type": "setup", "game": "worm-derby", "players": ["suns"]}\n{"type": 3}\n')
    r = run("referee", str(f))
    assert r.returncode == 1 and "line 2" in r.stderr and "Traceback" not in r.stderr


def test_every_subcommand_has_help(capsys):
    from tabletop.cli import build_parser

    parser = build_parser()
    sub = next(a for a in parser._actions if a.dest == "command")
    for name in sub.choices:
        with pytest.raises(SystemExit) as exit_:
            main([name, "--help"])
        assert exit_.value.code == 0, name
    capsys.readouterr()


def test_referee_prints_json_lines(tmp_path, capsys):
    pytest.importorskip("referee.worm_derby")
    f = tmp_path / "r.jsonl"
    f.write_text(json.dumps({"type": "setup", "game": "worm-derby", "players": ["suns"]}) + "\n")
    assert main(["referee", str(f)]) == 0
