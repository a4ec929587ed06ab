"""The memory's count of coins (issue 13, play 199934): coins are not made or lost between
two still tables, so a coin of the accepted table that the reading lacks while it holds as
many coins of that suit as the table had is a coin moved, not missing: it is never added at
its old pose, whatever the picture shows there (a worm's coin lifted by its move, seen at 0.78
where it had lain, made the worm a coin long). The picture's verdict is stubbed: this is the
memory's rule, not the edge check's."""

from __future__ import annotations

import pytest

from tabletop.scene import Piece, Scene
from tests.vision.test_confirm import OTHER_TILES, SEEDS, TILE, WORM, D, _confirmer, _render
from vision.confirm import SEEN, Check, Confirmer


@pytest.fixture
def pixels_always_show_it(monkeypatch: pytest.MonkeyPatch) -> None:
    def seen(self, colours, piece, others, *ref):
        return Check(piece, SEEN, 10, 10, 0, 4)

    monkeypatch.setattr(Confirmer, "check", seen)


def test_memory_a_coin_moved_along_its_worm_is_not_confirmed_where_it_lay(
        pixels_always_show_it: None) -> None:
    known = Scene((TILE, *OTHER_TILES, *WORM))
    ahead = Piece("coin", WORM[0].x_mm - 1.0, WORM[0].y_mm - D, suit="suns")
    now = Scene((TILE, *OTHER_TILES, *WORM[:-1], ahead))  # the tail laid ahead of the head
    r = _render(now, SEEDS[0])
    out = _confirmer(r).confirm(r.image, now, known)
    (check,) = out.known
    assert check.piece == WORM[-1] and check.status == SEEN, check  # (the stub says so)
    assert out.scene == now and out.confirmed == ()


def test_memory_a_coin_the_reading_lacks_is_still_looked_for(pixels_always_show_it: None
                                                             ) -> None:
    known = Scene((TILE, *OTHER_TILES, *WORM))
    reading = Scene((TILE, *OTHER_TILES, *WORM[:-1]))
    r = _render(known, SEEDS[0])
    out = _confirmer(r).confirm(r.image, reading, known)
    (check,) = out.known
    assert check.status == SEEN and out.confirmed == (len(reading),)
    assert out.scene.pieces[-1].centre_mm == WORM[-1].centre_mm
