"""Running the dashboard for tests: in a thread (browser tests) or as a real process."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from werkzeug.serving import make_server

ROOT = Path(__file__).resolve().parents[2]
LAUNCH = ("import sys, tests.web.fakes; from tabletop.cli import main; "
          "sys.exit(main(sys.argv[1:]))")


class ThreadServer:
    """Serves an app on 127.0.0.1 on a free port, in a background thread."""

    def __init__(self, app: Any) -> None:
        self.app = app
        self.server = make_server("127.0.0.1", 0, app, threaded=True)
        self.url = f"http://127.0.0.1:{self.server.server_port}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def close(self) -> None:
        self.app.extensions["tabletop"].close()  # ends the streams first
        self.server.shutdown()
        self.server.server_close()


def start_process(args: Sequence[str]) -> tuple[subprocess.Popen, str]:
    """Starts ``tabletop ARGS`` (with the test game registered); returns it and its URL."""
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    proc = subprocess.Popen([sys.executable, "-c", LAUNCH, *args], cwd=ROOT, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    line = proc.stdout.readline()
    if "dashboard at" not in line:
        proc.kill()
        raise AssertionError(f"the server did not start: {line!r} {proc.stderr.read()}")
    return proc, line.split("dashboard at ", 1)[1].strip().rstrip("/")


def stop_process(proc: subprocess.Popen, sig: int | None = None) -> None:
    """Sends ``sig`` (default: terminate), waits, and closes the pipes."""
    if proc.poll() is None:
        if sig is None:
            proc.terminate()
        else:
            proc.send_signal(sig)
    try:
        proc.wait(10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(10)
    for pipe in (proc.stdout, proc.stderr):
        if pipe is not None:
            pipe.close()
