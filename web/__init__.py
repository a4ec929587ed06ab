"""The dashboard: a local Flask site over the live runtime (:mod:`live`).

>>> from web import create_app
>>> app = create_app({"TESTING": True, "LOG_PATH": ":memory:"})
>>> app.test_client().get("/api/state").status_code
200
"""

from __future__ import annotations

from typing import Any

__all__ = ["create_app"]


def __getattr__(name: str) -> Any:
    # Flask is loaded on first use, so `tabletop --help` and the other commands start fast.
    if name in ("create_app", "MAX_REQUEST_BYTES"):
        from web import factory

        return getattr(factory, name)
    raise AttributeError(f"module 'web' has no attribute {name!r}")
