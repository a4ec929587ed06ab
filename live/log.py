"""The playthrough log: one SQLite file per table, every game played on it.

Everything the contract's game record holds is here, with timestamps: each input event and the
output events it produced (``events``), the accepted table after each verdict (``scenes``) and a
small JPEG of the table at each verdict (``snapshots``). One input event and everything it caused
are written in one transaction, and SQLite runs in WAL mode with ``synchronous=FULL``: when
:meth:`GameLog.append` returns, the data is on disk (fsync'd), so a process killed at any moment
afterwards loses nothing. The dashboard shows an event only after ``append`` returned.

An input event's ``Idempotency-Key`` (``requests``) and a replay's progress (``meta``) are written
in the event's own transaction (:meth:`GameLog.along`). A log file deleted while open is written
again whole before the next event; a full disk or a read-only file refuses the event, and the
log stays as it was.

A game's record is its events in ``seq`` order (input and output events both take positions, so
an exported record replays to the same ``seq`` values).

>>> log = GameLog(":memory:")
>>> from tabletop.events import Setup, Roll
>>> g = log.new_game(Setup("worm-derby", ("suns", "moons")))
>>> log.append(g, [(1, Roll("suns", "3", t=1.0))])
>>> [e.type for e in log.events(g)]
['setup', 'roll']
"""

from __future__ import annotations

import contextlib
import json
import sqlite3
import sys
import threading
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tabletop.errors import InputError
from tabletop.events import Event, Setup, dumps_record, parse_event
from tabletop.limits import MAX_ID
from tabletop.scene import Scene

SCHEMA_VERSION = 1

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY,
    started REAL NOT NULL,
    name TEXT NOT NULL,
    players TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS events (
    game_id INTEGER NOT NULL REFERENCES games(id),
    seq INTEGER NOT NULL,
    t REAL,
    type TEXT NOT NULL,
    input INTEGER NOT NULL,
    body TEXT NOT NULL,
    PRIMARY KEY (game_id, seq)
);
CREATE TABLE IF NOT EXISTS scenes (
    game_id INTEGER NOT NULL REFERENCES games(id),
    seq INTEGER NOT NULL,
    body TEXT NOT NULL,
    PRIMARY KEY (game_id, seq)
);
CREATE TABLE IF NOT EXISTS requests (
    key TEXT PRIMARY KEY,
    game_id INTEGER NOT NULL REFERENCES games(id),
    seq INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS snapshots (
    game_id INTEGER NOT NULL REFERENCES games(id),
    seq INTEGER NOT NULL,
    jpeg BLOB NOT NULL,
    PRIMARY KEY (game_id, seq)
);
"""


class LogError(InputError):
    """The log file cannot be opened or is not a playthrough log."""


@dataclass(frozen=True)
class GameSummary:
    """One row of the history: a game played on this table."""

    id: int
    started: float
    name: str
    players: tuple[str, ...]
    events: int
    verdicts: int

    def to_json(self) -> dict[str, Any]:
        """The summary as JSON."""
        return {"id": self.id, "started": self.started, "game": self.name,
                "players": list(self.players), "events": self.events, "verdicts": self.verdicts}


class GameLog:
    """The SQLite log of one table (thread-safe; one connection guarded by a lock).

    Args:
        path: The database file (created when absent) or ``":memory:"``.
    """

    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        self._lock = threading.Lock()
        self._along = threading.local()
        self.notes: list[str] = []
        """What happened to the file while it was open (deleted and written again...)."""
        self._db = self._open()
        self._inode = self._file_id()

    def _open(self) -> sqlite3.Connection:
        path = self.path
        try:
            db = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=FULL")
            db.execute("PRAGMA foreign_keys=ON")
            db.executescript(_SCHEMA)
            row = db.execute("SELECT value FROM meta WHERE key='schema'").fetchone()
            if row is None:
                db.execute("INSERT INTO meta VALUES ('schema', ?)", (str(SCHEMA_VERSION),))
            elif row[0] != str(SCHEMA_VERSION):
                raise LogError(f"{path}: log schema {row[0]} is not the one this program "
                               f"writes ({SCHEMA_VERSION})")
            db.execute("BEGIN IMMEDIATE")  # can it be written? (a read-only file says so now)
            try:
                db.execute("INSERT OR REPLACE INTO meta VALUES ('write-check', '1')")
            finally:
                db.execute("ROLLBACK")
        except sqlite3.OperationalError as exc:
            raise LogError(f"{path}: cannot use this log ({exc}); is the file or its folder "
                           f"read-only, or the disk full? Give another --db or free it") from None
        except sqlite3.DatabaseError as exc:
            raise LogError(f"{path}: not a playthrough log ({exc})") from None
        return db

    def _file_id(self) -> tuple[int, int] | None:
        if self.path == ":memory:" or self.path.startswith("file:"):
            return None
        try:
            st = Path(self.path).stat()
        except OSError:
            return None
        return (st.st_dev, st.st_ino)

    def _check_file(self) -> None:
        """Before a write: the file must still be the one opened. A log deleted (or its folder)
        while open would take every later event with it; it is written again from the open
        connection, which still holds everything, and the game goes on.

        Raises:
            sqlite3.OperationalError: the file is gone and cannot be written again.
        """
        if self._inode is None or self._file_id() == self._inode:
            return
        target = Path(self.path)
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
            fresh = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
            self._db.backup(fresh)
            fresh.close()
            db = self._open()
        except (OSError, sqlite3.Error, LogError) as exc:
            raise sqlite3.OperationalError(
                f"the log file {self.path} was deleted or moved and cannot be written again "
                f"({exc})") from None
        self._db.close()
        self._db, self._inode = db, self._file_id()
        note = f"{self.path}: the log file was deleted while open; it was written again whole"
        self.notes.append(note)
        print(f"tabletop: {note}", file=sys.stderr, flush=True)

    def close(self) -> None:
        """Closes the database."""
        with self._lock:
            self._db.close()

    # ------------------------------------------------------------------ writing

    @contextlib.contextmanager
    def along(self, request_key: str | None = None,
              meta: dict[str, str] | None = None) -> Iterator[None]:
        """Rows written in the same transaction as this thread's next stored input event.

        Args:
            request_key: An ``Idempotency-Key``: remembered with the event's game and ``seq``
                (:meth:`find_request`), so a retry is never stored twice.
            meta: ``key -> value`` rows of the ``meta`` table (a replay's progress), committed
                with the event, so a kill never leaves one without the other.
        """
        self._along.rows = (request_key, dict(meta or {}))
        try:
            yield
        finally:
            self._along.rows = None

    def _write_along(self, game_id: int, seq: int) -> None:
        rows = getattr(self._along, "rows", None)
        if not rows:
            return
        key, meta = rows
        if key is not None:
            self._db.execute("INSERT INTO requests VALUES (?, ?, ?)", (key, game_id, seq))
        for k, v in meta.items():
            self._db.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", (k, v))
        self._along.rows = None

    def set_meta(self, key: str, value: str | None) -> None:
        """Stores (or with None removes) one row of the ``meta`` table."""
        with self._lock, self._tx():
            if value is None:
                self._db.execute("DELETE FROM meta WHERE key=?", (key,))
            else:
                self._db.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", (key, value))

    def meta(self, key: str) -> str | None:
        """One row of the ``meta`` table, or None."""
        with self._lock:
            row = self._db.execute("SELECT value FROM meta WHERE key=?", (key,)).fetchone()
        return None if row is None else str(row[0])

    def new_game(self, setup: Setup) -> int:
        """Starts a game: stores its setup as event 0 and returns the game's id."""
        t = setup.t if setup.t is not None else time.time()
        with self._lock:
            self._check_file()
        with self._lock, self._tx():
            cur = self._db.execute("INSERT INTO games (started, name, players) VALUES (?, ?, ?)",
                                   (t, setup.game, json.dumps(list(setup.players))))
            game_id = int(cur.lastrowid or 0)
            self._insert_event(game_id, 0, setup)
            self._write_along(game_id, 0)
        return game_id

    def append(self, game_id: int, events: Sequence[tuple[int, Event]],
               scene: tuple[int, Scene] | None = None,
               jpeg: tuple[int, bytes] | None = None) -> None:
        """Stores events (each with its ``seq``), an accepted scene and a snapshot, atomically.

        Returns only once the transaction is committed and synced to disk.
        """
        with self._lock:
            self._check_file()
        with self._lock, self._tx():
            for seq, event in events:
                self._insert_event(game_id, seq, event)
            if events:
                self._write_along(game_id, events[0][0])
            if scene is not None:
                self._db.execute("INSERT OR REPLACE INTO scenes VALUES (?, ?, ?)",
                                 (game_id, scene[0], scene[1].dumps()))
            if jpeg is not None:
                self._db.execute("INSERT OR REPLACE INTO snapshots VALUES (?, ?, ?)",
                                 (game_id, jpeg[0], jpeg[1]))

    def _insert_event(self, game_id: int, seq: int, event: Event) -> None:
        self._db.execute("INSERT INTO events VALUES (?, ?, ?, ?, ?, ?)",
                         (game_id, seq, event.t, event.type, int(event.is_input), event.dumps()))

    def _tx(self) -> _Transaction:
        return _Transaction(self._db)

    # ------------------------------------------------------------------ reading

    def latest_game(self) -> int | None:
        """The id of the game played last, or None for an empty log."""
        with self._lock:
            row = self._db.execute("SELECT max(id) FROM games").fetchone()
        return None if row[0] is None else int(row[0])

    def find_request(self, key: str) -> tuple[int, int] | None:
        """``(game_id, seq)`` of the input event stored under an ``Idempotency-Key``, or None."""
        with self._lock:
            row = self._db.execute("SELECT game_id, seq FROM requests WHERE key=?",
                                   (key,)).fetchone()
        return None if row is None else (int(row[0]), int(row[1]))

    def stored_json(self, game_id: int, seq: int) -> dict[str, Any]:
        """The input event at ``seq`` and the outputs after it, as ``POST /api/events`` said."""
        rows = [(s, e) for s, e in self.event_rows(game_id) if s >= seq]
        event = rows[0][1]
        outputs = []
        for s, e in rows[1:]:
            if e.is_input:
                break
            outputs.append({**e.to_json(), "position": s})
        return {"game_id": game_id, "seq": seq, "event": event.to_json(), "outputs": outputs}

    def has_game(self, game_id: int) -> bool:
        """Whether a game of that id is in the log."""
        if not 0 <= game_id <= MAX_ID:
            return False
        with self._lock:
            return self._db.execute("SELECT 1 FROM games WHERE id=?",
                                    (game_id,)).fetchone() is not None

    def games(self) -> list[GameSummary]:
        """Every game, the latest first."""
        with self._lock:
            rows = self._db.execute(
                "SELECT g.id, g.started, g.name, g.players, count(e.seq), "
                "sum(e.type = 'verdict') FROM games g LEFT JOIN events e ON e.game_id = g.id "
                "GROUP BY g.id ORDER BY g.id DESC").fetchall()
        return [GameSummary(int(r[0]), float(r[1]), r[2], tuple(json.loads(r[3])), int(r[4]),
                            int(r[5] or 0)) for r in rows]

    def event_rows(self, game_id: int) -> list[tuple[int, Event]]:
        """``(seq, event)`` of a game, in order."""
        with self._lock:
            rows = self._db.execute("SELECT seq, body FROM events WHERE game_id=? ORDER BY seq",
                                    (game_id,)).fetchall()
        return [(int(seq), parse_event(json.loads(body), f"log event {seq}", strict=False))
                for seq, body in rows]

    def events(self, game_id: int) -> list[Event]:
        """A game's record: its events in order."""
        return [e for _, e in self.event_rows(game_id)]

    def record(self, game_id: int) -> str:
        """A game's record as the contract's JSON Lines."""
        return dumps_record(self.events(game_id))

    def scenes(self, game_id: int) -> list[tuple[int, Scene]]:
        """The accepted tables of a game: ``(seq of the input judged, scene)``, in order."""
        with self._lock:
            rows = self._db.execute("SELECT seq, body FROM scenes WHERE game_id=? ORDER BY seq",
                                    (game_id,)).fetchall()
        return [(int(seq), Scene.loads(body)) for seq, body in rows]

    def snapshot(self, game_id: int, seq: int) -> bytes | None:
        """The JPEG stored with the verdict on input ``seq``, or None."""
        with self._lock:
            row = self._db.execute("SELECT jpeg FROM snapshots WHERE game_id=? AND seq=?",
                                   (game_id, seq)).fetchone()
        return None if row is None else bytes(row[0])

    def snapshot_seqs(self, game_id: int) -> list[int]:
        """The ``seq`` values that have a snapshot."""
        with self._lock:
            rows = self._db.execute("SELECT seq FROM snapshots WHERE game_id=? ORDER BY seq",
                                    (game_id,)).fetchall()
        return [int(r[0]) for r in rows]


class _Transaction:
    """``BEGIN IMMEDIATE`` ... ``COMMIT`` (or ``ROLLBACK`` on an exception)."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self._db = db

    def __enter__(self) -> None:
        self._db.execute("BEGIN IMMEDIATE")

    def __exit__(self, exc_type: Any, *_: Any) -> None:
        self._db.execute("ROLLBACK" if exc_type else "COMMIT")

