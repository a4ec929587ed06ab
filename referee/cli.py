"""Subcommands of the referee: ``tabletop referee`` and the games' own (Jungle's ``perft``)."""

from __future__ import annotations

import argparse
import json
import sys

from referee.jungle import cli as jungle_cli
from referee.record import Referee
from tabletop import jsonin
from tabletop.errors import RecordFormatError
from tabletop.events import parse_event
from tabletop.files import read_text


def register(sub: argparse._SubParsersAction) -> None:
    """Adds ``referee`` and the games' own subcommands."""
    p = sub.add_parser(
        "referee", help="fold a game record and print every verdict and game event",
        description="Reads a game record (JSON Lines: a setup, then scenes, rolls, bids, moves, "
                    "corrections) and prints one JSON line per verdict and per game event. "
                    "Output events already in the record are ignored and derived anew.")
    p.add_argument("record", metavar="RECORD.jsonl", help="the game record (- for standard input)")
    p.set_defaults(func=run_referee)
    jungle_cli.register(sub)  # a game's own subcommands: a module with register(subparsers)


def run_referee(args: argparse.Namespace) -> int:
    """``tabletop referee RECORD.jsonl`` (``-`` reads the record from standard input).

    Verdicts are printed as each event is judged, so a malformed line further down still leaves
    every verdict before it on stdout; the error names the file and the 1-based line.
    """
    name = "<stdin>" if args.record == "-" else args.record
    if args.record == "-":
        lines = sys.stdin.read().splitlines()
    else:
        lines = read_text(args.record, "game record", RecordFormatError).splitlines()
    referee = Referee()
    seq = 0
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        where = f"{name}: line {number}"
        event = parse_event(jsonin.loads(line, where, RecordFormatError), where)
        try:
            outs = referee.push(event, seq)
        except RecordFormatError as exc:  # name the file, as every error of the command line
            raise RecordFormatError(f"{name}: line {number}: {exc}") from None
        for out in outs:
            sys.stdout.write(json.dumps(out.to_json()) + "\n")
        sys.stdout.flush()
        seq += 1
    if seq == 0:
        raise RecordFormatError(f"{name}: the record is empty (it must begin with a setup event)")
    if referee.game is None:
        raise RecordFormatError(f"{name}: the record has no setup event (it must begin with one)")
    return 0
