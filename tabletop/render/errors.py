"""Errors of the scene renderer (one-line messages, like every :class:`TabletopError`)."""

from __future__ import annotations

from tabletop.errors import InputError


class RenderError(InputError):
    """A camera pose, render setting or decal that cannot be rendered."""
