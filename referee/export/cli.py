"""``tabletop export RECORD.jsonl --format moves|ppn|svg|png -o OUT``: a game to read or share."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterable
from pathlib import Path

from referee.export import FORMATS
from tabletop.errors import InputError
from tabletop.events import Event, read_record


def export(events: list[Event] | Iterable[Event], fmt: str) -> bytes:
    """A record in one of :data:`referee.export.FORMATS`, as bytes.

    Raises:
        InputError: a format it does not know, or a game that format cannot hold.
    """
    events = list(events)
    if fmt == "moves":
        from referee.export.moves import moves_text

        return moves_text(events).encode("utf-8")
    if fmt == "ppn":
        from referee.export.ppn import ppn_text

        return ppn_text(events).encode("utf-8")
    if fmt == "svg":
        from referee.export.svg import svg_text

        return svg_text(events).encode("utf-8")
    if fmt == "png":
        from referee.export.png import png_bytes

        return png_bytes(events)
    raise InputError(f"unknown export format {fmt!r} (known: {', '.join(FORMATS)})")


def register(subparsers: argparse._SubParsersAction) -> None:
    """Adds ``export``."""
    p = subparsers.add_parser(
        "export", help="a game record as a move list, PPN, or the table diagram",
        description="Writes a game record (JSON Lines, as `tabletop referee` reads) as a "
                    "readable move list, Portable Piecepack Notation (YAML header and "
                    "movetext; Worm Derby), or the diagram of its last table as SVG or PNG.")
    p.add_argument("record", metavar="RECORD.jsonl", help="the game record")
    p.add_argument("--format", required=True, choices=FORMATS, help="what to write")
    p.add_argument("-o", "--output", required=True, metavar="OUT",
                   help="where to write it ('-' for standard output)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Runs ``export``."""
    events = read_record(args.record)
    if not events:
        raise InputError(f"{args.record}: the record is empty")
    if not any(e.type == "setup" for e in events):
        raise InputError(f"{args.record}: the record has no setup event (it must begin with one)")
    try:
        data = export(events, args.format)
    except InputError as exc:
        raise InputError(f"{args.record}: {exc}") from None
    if args.output == "-":
        sys.stdout.buffer.write(data)
        sys.stdout.flush()
        return 0
    out = Path(args.output)
    try:
        out.write_bytes(data)
    except OSError as exc:
        raise InputError(f"{out}: cannot write ({exc.strerror})") from None
    print(f"{args.format}: {out}")
    return 0
