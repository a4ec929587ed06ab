"""Subcommands of the referee: ``tabletop referee`` (and, as games add them, ``fit``, ``perft``)."""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import json
import sys

from referee.record import Referee
from tabletop.errors import RecordFormatError
from tabletop.events import read_record

# Games add their own subcommands here: a module with register(subparsers).
_GAME_COMMANDS = ("referee.worm_derby.cli", "referee.worm_up.cli", "referee.jungle.cli")


def register(sub: argparse._SubParsersAction) -> None:
    """Adds ``referee`` and the games' own subcommands."""
    p = sub.add_parser(
        "referee", help="fold a game record and print every verdict and game event",
        description="Reads a game record (JSON Lines: a setup, then scenes, rolls, bids, moves, "
                    "corrections) and prints one JSON line per verdict and per game event. "
                    "Output events already in the record are ignored and derived anew.")
    p.add_argument("record", metavar="RECORD.jsonl", help="the game record")
    p.set_defaults(func=run_referee)
    for name in _GAME_COMMANDS:
        if importlib.util.find_spec(name.rsplit(".", 1)[0]) and importlib.util.find_spec(name):
            importlib.import_module(name).register(sub)


def run_referee(args: argparse.Namespace) -> int:
    """``tabletop referee RECORD.jsonl``."""
    events = read_record(args.record)
    referee = Referee()
    for seq, event in enumerate(events):
        try:
            outs = referee.push(event, seq)
        except RecordFormatError as exc:  # name the file, as every error of the command line
            raise RecordFormatError(f"{args.record}: event {seq}: {exc}") from None
        for out in outs:
            sys.stdout.write(json.dumps(out.to_json()) + "\n")
    return 0
