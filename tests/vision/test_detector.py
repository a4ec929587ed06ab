"""The whole pipeline: devscenes, a rendered scene, an empty table, bad frames."""

from __future__ import annotations

import numpy as np
import pytest

from calibration.errors import ResolutionMismatch
from tabletop.pieceset import PieceSet
from tabletop.scene import Scene
from tests.vision.helpers import calibration_of, load_devscene, pose
from vision import Detector, DetectorConfig, FrameError, annotate


def _match(scene: Scene, truth: list[dict], kind: str, tol: float) -> list[tuple]:
    det = [p for p in scene.pieces if p.kind == kind]
    out, used = [], set()
    for q in truth:
        if q["kind"] != kind or q.get("occluded"):
            continue
        d = [(np.hypot(p.x_mm - q["x"], p.y_mm - q["y"]), i) for i, p in enumerate(det)
             if i not in used]
        if d and min(d)[0] <= tol:
            dist, i = min(d)
            used.add(i)
            out.append((det[i], q, dist))
    return out


@pytest.mark.parametrize("name", ["dev-scene11", "dev-scene19"])
def test_devscene_pieces_are_found_where_they_are(devscenes, name: str) -> None:
    img, cal, truth = load_devscene(devscenes, name)
    res = Detector(cal, config=DetectorConfig.for_game("worm-derby")).detect(img)
    assert not res.scene.hand
    for kind, tol in (("coin", 8.0), ("tile", 20.0)):
        n_true = sum(1 for q in truth["pieces"] if q["kind"] == kind and not q["occluded"])
        pairs = _match(res.scene, truth["pieces"], kind, tol)
        assert len(pairs) == n_true, kind
        assert len([p for p in res.scene.pieces if p.kind == kind]) == n_true, kind
        assert np.mean([d for *_, d in pairs]) < 1.0, kind
        assert all(p.suit == q["suit"] for p, q, _ in pairs if kind == "coin")
    tiles = _match(res.scene, truth["pieces"], "tile", 20.0)
    assert all(p.face == q["face"] for p, q, _ in tiles)
    for p, q, _ in tiles:
        d = (p.angle_deg - q["angle_deg"]) % 90
        assert min(d, 90 - d) < 1.5
    assert res.centres_px.shape == (len(res.scene), 2)
    assert {"prepare", "tiles", "coins", "total"} <= set(res.timings_ms)


def test_a_rendered_worm_is_split_into_its_coins() -> None:
    render = pytest.importorskip("tabletop.render")
    from tabletop.scene import Piece

    pieces = [Piece("coin", 19.06 * i - 40, 0.0, suit=s)
              for i, s in enumerate(("suns", "moons", "crowns", "arms", "suns"))]
    pieces.append(Piece.tile(-120.0, 90.0, 30.0, "down"))
    pieces.append(Piece.tile(120.0, 90.0, 10.0, "up", "crowns"))
    scene = Scene(tuple(pieces))
    r = render.render_scene(scene, render.CameraPose.looking_at(
        (0, 0), height_mm=800, tilt_deg=12, image_size=(800, 450), hfov_deg=55),
        render.RenderSettings(seed=5, table="felt", supersample=2))
    res = Detector(r.calibration(), config=DetectorConfig.for_game("worm-derby")).detect(r.image)
    truth = [{**p.to_json()} for p in scene.pieces]
    coins = _match(res.scene, truth, "coin", 8.0)
    assert len(coins) == 5
    assert [p.suit for p, _, _ in sorted(coins, key=lambda t: t[1]["x"])] == [
        "suns", "moons", "crowns", "arms", "suns"]
    assert max(d for *_, d in coins) < 1.5
    tiles = _match(res.scene, truth, "tile", 20.0)
    assert sorted((p.face, p.suit) for p, _, _ in tiles) == [("down", None), ("up", "crowns")]


def _blank(size: tuple[int, int], seed: int = 0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    w, h = size
    img = np.full((h, w, 3), (60, 110, 150), np.uint8)  # a wooden-brown table
    return np.clip(img + rng.normal(0, 3, img.shape), 0, 255).astype(np.uint8)


def test_an_empty_table_is_an_empty_scene() -> None:
    K, R, t = pose(900.0, 12.0, (640, 360))
    det = Detector(calibration_of(K, R, t, (640, 360)))
    res = det.detect(_blank((640, 360)))
    assert res.scene == Scene.empty()
    assert res.centres_px.shape == (0, 2)


def test_frames_of_another_size_or_type_are_refused() -> None:
    K, R, t = pose(900.0, 12.0, (640, 360))
    det = Detector(calibration_of(K, R, t, (640, 360)))
    with pytest.raises(ResolutionMismatch, match="calibrate again"):
        det.detect(_blank((320, 180)))
    with pytest.raises(FrameError):
        det.detect(np.zeros((360, 640, 3), np.float32))


def test_piece_set_sizes_reach_the_stages() -> None:
    K, R, t = pose(900.0, 12.0, (640, 360))
    det = Detector(calibration_of(K, R, t, (640, 360)), PieceSet(coin_diameter_mm=25.0))
    assert det.config.coins.radius_mm == 12.5


def test_annotate_draws_on_a_copy(devscenes) -> None:
    img, cal, _ = load_devscene(devscenes, "dev-scene14")
    res = Detector(cal, config=DetectorConfig.for_game("worm-derby")).detect(img)
    before = img.copy()
    out = annotate(img, res)
    assert out.shape == img.shape and out is not img
    assert np.array_equal(img, before)
    assert np.count_nonzero(np.any(out != img, axis=2)) > 100


def test_a_hand_like_the_table_is_seen_as_a_change_and_light_is_not() -> None:
    render = pytest.importorskip("tabletop.render")
    from tabletop.scene import Piece

    scene = Scene(tuple(Piece("coin", 30.0 * i - 60, 20.0, suit="suns") for i in range(5)))
    pose = render.CameraPose.looking_at((0, 0), height_mm=700, tilt_deg=10,
                                        image_size=(640, 360), hfov_deg=60)

    def frame(k: int, hand: bool, exposure: float) -> np.ndarray:
        return render.render_scene(scene, pose, render.RenderSettings(
            seed=40 + k, table="wood", table_seed=2, hand=hand, exposure=exposure,
            supersample=1, hand_target_mm=(0.0, 20.0))).image

    cal = render.render_scene(scene, pose, render.RenderSettings(supersample=1)).calibration()
    det = Detector(cal, config=DetectorConfig.for_game("worm-derby"))
    seen = [det.detect(frame(k, hand, exp)).scene.hand
            for k, (hand, exp) in enumerate([(False, 1.0), (False, 1.0), (True, 1.0),
                                             (False, 1.0), (False, 1.25)])]
    assert seen == [False, False, True, False, False]


def test_a_frame_showing_the_same_table_reuses_the_last_result() -> None:
    render = pytest.importorskip("tabletop.render")
    from tabletop.scene import Piece

    pose = render.CameraPose.looking_at((0, 0), height_mm=800, tilt_deg=10,
                                        image_size=(800, 450), hfov_deg=55)

    def frame(seed: int, x: float) -> np.ndarray:
        scene = Scene((Piece("coin", x, 0.0, suit="suns"), Piece("coin", 60.0, 30.0,
                                                                 suit="arms")))
        return render.render_scene(scene, pose, render.RenderSettings(
            seed=seed, table="wood", table_seed=1, supersample=1, noise_sigma=3.0)).image

    cal = render.render_scene(Scene.empty(), pose, render.RenderSettings(supersample=1))
    det = Detector(cal.calibration(), config=DetectorConfig.for_game("worm-derby"))
    first = det.detect(frame(1, 0.0))
    again = det.detect(frame(2, 0.0))  # the same table, other sensor noise
    assert "still" in again.timings_ms and again.scene == first.scene
    moved = det.detect(frame(3, 2.0))  # a coin moved by 2 mm is seen
    assert "still" not in moved.timings_ms
    xs = sorted(p.x_mm for p in moved.scene.pieces)
    assert xs[0] == pytest.approx(2.0, abs=0.5)
    full = Detector(cal.calibration(), config=DetectorConfig.for_game(
        "worm-derby", still_change=None))
    full.detect(frame(1, 0.0))
    assert "still" not in full.detect(frame(2, 0.0)).timings_ms
    # a frame passed over while busy is rechecked cheaply: the same table gives the last
    # result, a changed one nothing (and nothing is learnt from either)
    again = det.recheck(frame(4, 2.0))
    assert again is not None and again.scene == moved.scene and "still" in again.timings_ms
    assert det.recheck(frame(5, 12.0)) is None
    assert Detector(cal.calibration()).recheck(frame(1, 0.0)) is None  # nothing detected yet
