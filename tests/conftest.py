"""Shared fixtures: where the shared real data and development scenes are (skipped when absent)."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

# The machines are shared and noisy: no per-example deadline (speed is measured in bench/).
settings.register_profile("project", deadline=None,
                          suppress_health_check=[HealthCheck.too_slow], print_blob=True)
settings.load_profile("project")

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"
REALDATA = SHARED / "realdata"
DEVSCENES = SHARED / "devscenes"


@pytest.fixture(scope="session")
def realdata() -> Path:
    """``../shared/realdata``; the test is skipped when it is absent."""
    if not REALDATA.is_dir():
        pytest.skip("../shared/realdata is absent")
    return REALDATA


@pytest.fixture(scope="session")
def devscenes() -> Path:
    """``../shared/devscenes``; the test is skipped when it is absent."""
    if not DEVSCENES.is_dir():
        pytest.skip("../shared/devscenes is absent")
    return DEVSCENES
