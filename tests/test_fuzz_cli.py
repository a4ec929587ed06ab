"""Hostile input to every command: one line naming the file or option, exit 1 or 2, never more.

A table of bad files and values (a PNG declaring 20000x20000 pixels, a JPEG cut short, JSON nested
100,000 deep, 5000-digit integers, NaN, lone surrogates, a record without a setup, impossible
numbers for options...) and hypothesis-made game records and scenes. Each run must end with
exit code 1 or 2 and exactly one line on stderr (no library warning before it, no traceback, no
"internal error") naming the bad file or option. Everything runs in this process; the commands
that serve fail the test instead of serving if they take bad input.
"""

from __future__ import annotations

import json
import struct
import zlib
from pathlib import Path

import cv2
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tabletop.cli import build_parser, main

ROOT = Path(__file__).resolve().parents[1]
SAMPLE_CAL = ROOT / "sample_images" / "worm_derby" / "calibration.json"


def _png_chunk(kind: bytes, body: bytes) -> bytes:
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))


@pytest.fixture(scope="module")
def files(tmp_path_factory) -> Path:
    d = tmp_path_factory.mktemp("hostile")
    (d / "big.png").write_bytes(
        b"\x89PNG\r\n\x1a\n" + _png_chunk(b"IHDR", struct.pack(">IIBBBBB", 20000, 20000, 8, 2,
                                                                0, 0, 0))
        + _png_chunk(b"IDAT", zlib.compress(b"\0" * 100)) + _png_chunk(b"IEND", b""))
    img = np.full((480, 640, 3), 120, np.uint8)
    cv2.imwrite(str(d / "ok.jpg"), img)
    whole = (d / "ok.jpg").read_bytes()
    (d / "cut.jpg").write_bytes(whole[: len(whole) // 2])
    middle = len(whole) // 2
    (d / "damaged.jpg").write_bytes(whole[:middle] + b"\xff\x00\x01\x02" + whole[middle:])
    (d / "text.png").write_text("hello")
    cv2.imwrite(str(d / "tiny.png"), np.full((1, 1, 3), 100, np.uint8))
    (d / "empty.jpg").write_bytes(b"")
    deep = "[" * 100000 + "]" * 100000
    (d / "deep.json").write_text(deep)
    (d / "deep.jsonl").write_text(deep + "\n")
    (d / "huge.json").write_text('{"pieces": [{"kind": "coin", "x": ' + "9" * 5000 + ', "y": 0}]}')
    (d / "nan.json").write_text('{"pieces": [{"kind": "coin", "x": NaN, "y": 0}]}')
    (d / "far.json").write_text('{"pieces": [{"kind": "tile", "x": 1000000, "y": 0}]}')
    (d / "list.json").write_text("[1, 2]")
    setup = '{"type": "setup", "game": "worm-derby", "players": ["suns", "moons"]'
    (d / "nan.jsonl").write_text(setup + ', "options": {"x": NaN}}\n')
    (d / "nosetup.jsonl").write_text('{"type": "roll", "player": "suns", "value": "3"}\n')
    (d / "outonly.jsonl").write_text('{"type": "winner", "player": "suns"}\n')
    (d / "sizes.jsonl").write_text(setup + ', "options": {"sizes": [1]}}\n')
    (d / "canibal.jsonl").write_text(setup + ', "options": {"canibal": true}}\n')
    (d / "surrogate.jsonl").write_text(
        '{"type": "setup", "game": "worm-derby", "players": ["\\ud800", "moons"]}\n')
    (d / "where.jsonl").write_text(setup + '}\n{"type": "verdict", "seq": 0, "player": null, '
                                   '"legal": true, "rule": "ok", "reason": "x", '
                                   '"where": ["a", "b"]}\n')
    (d / "binary.jsonl").write_bytes(b"\xff\xfe\x00garbage")
    (d / "junk.mp4").write_bytes(bytes(range(256)) * 20)
    cal = json.loads(SAMPLE_CAL.read_text())
    (d / "cal.json").write_text(json.dumps(cal))
    (d / "caldeep.json").write_text(deep)
    (d / "calsing.json").write_text(json.dumps({**cal, "homography": [[0] * 3] * 3}))
    (d / "calhuge.json").write_text(json.dumps(cal).replace('"image_size": [1280, 720]',
                                                           '"image_size": [' + "9" * 40 + ", 5]"))
    (d / "lens10.json").write_text(json.dumps({"version": 1, "image_size": [10, 10],
                                               "K": [[1, 0, 5], [0, 1, 5], [0, 0, 1]],
                                               "dist": [0, 0, 0, 0, 0], "rms_px": 0.1}))
    (d / "points_deep.json").write_text(deep)
    (d / "points_many.json").write_text(json.dumps(
        [{"pixel": [i % 640, i % 480], "world": [i, i * 2]} for i in range(20000)]))
    (d / "pieces_big.json").write_text('{"tile_mm": 1e7}')
    (d / "small").mkdir()
    cv2.imwrite(str(d / "small" / "000.jpg"), img)
    (d / "frames").mkdir()
    cv2.imwrite(str(d / "frames" / "000.jpg"), np.full((720, 1280, 3), 120, np.uint8))
    (d / "mixed").mkdir()
    cv2.imwrite(str(d / "mixed" / "000.jpg"), np.full((720, 1280, 3), 120, np.uint8))
    cv2.imwrite(str(d / "mixed" / "001.jpg"), np.full((600, 800, 3), 120, np.uint8))
    return d


# (arguments, what the one line must name); {d} is the folder of hostile files.
CASES = [
    ("detect {d}/big.png --calibration {d}/cal.json", "big.png"),
    ("detect {d}/cut.jpg --calibration {d}/cal.json", "cut.jpg"),
    ("detect {d}/text.png --calibration {d}/cal.json", "text.png"),
    ("detect {d}/damaged.jpg --calibration {d}/cal.json", "damaged.jpg"),
    ("calibrate {d}/damaged.jpg -o {d}/o.json", "damaged.jpg"),
    ("detect {d}/empty.jpg --calibration {d}/cal.json", "empty.jpg"),
    ("detect {d}/missing.jpg --calibration {d}/cal.json", "missing.jpg"),
    ("detect {d}/ok.jpg --calibration {d}/caldeep.json", "caldeep.json"),
    ("detect {d}/ok.jpg --calibration {d}/calsing.json", "calsing.json"),
    ("detect {d}/ok.jpg --calibration {d}/cal.json", "cal.json"),
    ("detect {d}/ok.jpg --calibration {d}/calhuge.json", "calhuge.json"),
    ("detect {d}/ok.jpg --calibration {d}/lens10.json", "lens10.json"),
    ("calibrate {d}/big.png -o {d}/o.json", "big.png"),
    ("calibrate {d}/cut.jpg -o {d}/o.json", "cut.jpg"),
    ("calibrate {d}/ok.jpg -o {d}/o.json --lens {d}/lens10.json", "lens10.json"),
    ("calibrate {d}/ok.jpg -o {d}/o.json --points {d}/points_deep.json", "points_deep.json"),
    ("calibrate {d}/ok.jpg -o {d}/o.json --bar-mm nan", "--bar-mm"),
    ("calibrate {d}/ok.jpg -o {d}/o.json --points {d}/points_many.json", "points_many.json"),
    ("lens {d}/big.png {d}/ok.jpg {d}/ok.jpg --chessboard 9x6 --square 25 -o {d}/l.json",
     "big.png"),
    ("lens {d}/ok.jpg {d}/ok.jpg {d}/ok.jpg --chessboard 9x6 --square 25 -o {d}/l.json "
     "--min-coverage nan", "--min-coverage"),
    ("lens {d}/tiny.png {d}/tiny.png {d}/tiny.png --chessboard 9x6 --square 25 -o {d}/l.json",
     "tiny.png"),
    ("lens {d}/ok.jpg {d}/ok.jpg {d}/ok.jpg --chessboard 9x6 --square inf -o {d}/l.json",
     "--square"),
    ("fit {d}/deep.json --from 0,0 --to 1,1", "deep.json"),
    ("fit {d}/huge.json --from 0,0 --to 1,1", "huge.json"),
    ("fit {d}/nan.json --from 0,0 --to 1,1", "nan.json"),
    ("fit {d}/far.json --from 0,0 --to 1,1", "far.json"),
    ("fit {d}/list.json --from 0,0 --to 1,1", "list.json"),
    ("fit {d}/big.png --from 0,0 --to 1,1 --calibration {d}/cal.json", "big.png"),
    ("fit {d}/ok.jpg --from 0,0 --to 1,1 --calibration {d}/cal.json", "cal.json"),
    ("fit {d}/list.json --from 0,0 --to 1e400,1", "--to"),
    ("fit {d}/far.json --from 0,0 --to 1,1 --pieces {d}/pieces_big.json", "pieces_big.json"),
    ("fit {d}/far.json --from 0,0 --to 1,1 --coin 1e9", "--coin"),
    ("referee {d}/deep.jsonl", "deep.jsonl"),
    ("referee {d}/nan.jsonl", "nan.jsonl"),
    ("referee {d}/nosetup.jsonl", "nosetup.jsonl"),
    ("referee {d}/outonly.jsonl", "outonly.jsonl"),
    ("referee {d}/sizes.jsonl", "sizes.jsonl"),
    ("referee {d}/canibal.jsonl", "canibal"),
    ("referee {d}/surrogate.jsonl", "surrogate.jsonl"),
    ("referee {d}/where.jsonl", "where.jsonl"),
    ("referee {d}/binary.jsonl", "binary.jsonl"),
    ("referee {d}", str(Path("{d}"))),
    ("export {d}/deep.jsonl --format moves -o -", "deep.jsonl"),
    ("export {d}/nan.jsonl --format ppn -o -", "nan.jsonl"),
    ("export {d}/outonly.jsonl --format moves -o -", "outonly.jsonl"),
    ("export {d}/surrogate.jsonl --format svg -o {d}/x.svg", "surrogate.jsonl"),
    ("export {d}/canibal.jsonl --format png -o {d}/x.png", "canibal"),
    ("render {d}/far.json -o {d}/r.jpg", "far.json"),
    ("render {d}/deep.json -o {d}/r.jpg", "deep.json"),
    ("render {d}/nan.json -o {d}/r.jpg", "nan.json"),
    ("render {d}/list.json -o {d}/r.jpg --yaw nan", "--yaw"),
    ("render {d}/list.json -o {d}/r.jpg --seed 99999999999", "--seed"),
    ("mat -o {d}/m.png --dpi 100000", "--dpi"),
    ("mat -o {d}/m.png --dpi nan", "--dpi"),
    ("mat -o /nonexistent/m.png", "/nonexistent/m.png"),
    ("board jungle -o {d}/b.png --dpi 1e9", "--dpi"),
    ("board jungle --photo {d}/big.png -o {d}/bc.json", "big.png"),
    ("perft jungle 99999999999999999999999999", "DEPTH"),
    ("perft jungle 1 --positions {d}/binary.jsonl", "binary.jsonl"),
    ("replay {d}/small --calibration {d}/cal.json --game worm-derby", "000.jpg"),
    ("replay {d}/mixed --calibration {d}/cal.json --game worm-derby --repeat 1", "001.jpg"),
    ("replay {d}/frames --calibration {d}/cal.json --game worm-derby --repeat 99999999999",
     "--repeat"),
    ("replay {d}/frames --calibration {d}/caldeep.json --game worm-derby", "caldeep.json"),
    ("replay {d}/missing --calibration {d}/cal.json --game worm-derby", "missing"),
    ("replay {d}/junk.mp4 --calibration {d}/cal.json --game worm-derby", "junk.mp4"),
    ("replay {d}/frames --calibration {d}/cal.json --game worm-derby --options "
     '{{"canibal":true}}', "canibal"),
    ("replay {d}/frames --calibration {d}/cal.json --game worm-derby --db /proc/nope/x.db",
     "/proc/nope"),
]
SERVING = [  # these would serve if the input were good: a process, with a time limit
    ("serve --port 70000", "--port"),
    ("serve --db /proc/nope/x.db", "/proc/nope"),
    ("serve --db {d}/text.png", "text.png"),
    ("serve --source {d}/frames", "--calibration"),
    ("serve --source {d}/frames --calibration {d}/caldeep.json", "caldeep.json"),
    ("serve --area nan,0,1,1", "--area"),
    ("demo --port 99999", "--port"),
    ("demo --pace nan", "--pace"),
    ("serve --repeat 0", "--repeat"),
    ("serve --db {d}/p.db --game worm-derby --players " + "x" * 100 + ",moons", "--players"),
]


def _run(args: list[str]) -> int:
    try:
        return main(args)
    except SystemExit as exc:  # argparse's usage errors
        return int(exc.code or 0)


def _args(line: str, d: Path) -> list[str]:
    parts = line.split(" ")
    return [p.replace("{d}", str(d)).replace("{{", "{").replace("}}", "}") for p in parts]


def _one_line(code: int, err: str, names: str, what: str) -> None:
    assert code in (1, 2), f"{what}: exit {code}: {err[-300:]}"
    lines = [ln for ln in err.strip().splitlines()
             if not ln.startswith("replay [")]  # replay's own progress bar, on stderr by design
    assert len(lines) == 1, f"{what}: {err[-600:]}"
    assert lines[0].startswith("tabletop") and ": error: " in lines[0], what
    assert "internal error" not in err and "Traceback" not in err, what
    assert names in lines[0], f"{what}: the error does not name {names!r}: {lines[0]}"


def test_every_command_has_hostile_cases():
    sub = next(a for a in build_parser()._actions if a.dest == "command")
    covered = {line.split(" ", 1)[0] for line, _ in CASES + SERVING}
    missing = set(sub.choices) - covered
    assert not missing, f"commands without hostile cases (add them to CASES): {sorted(missing)}"


@pytest.mark.parametrize(("line", "names"), CASES, ids=[c[0][:50] for c in CASES])
def test_bad_input_is_one_line_naming_it(files, capfd, line, names):
    code = _run(_args(line, files))
    err = capfd.readouterr().err
    _one_line(code, err, names.replace("{d}", str(files)), line)


@pytest.mark.parametrize(("line", "names"), SERVING, ids=[c[0][:50] for c in SERVING])
def test_bad_input_to_the_servers_is_one_line_naming_it(files, capfd, monkeypatch, line, names):
    import web.cli

    def never(app, *a, **kw):
        app.extensions["tabletop"].close()
        raise AssertionError(f"{line}: bad input was taken and the server started")

    monkeypatch.setattr(web.cli, "serve_app", never)
    code = _run(_args(line, files))
    _one_line(code, capfd.readouterr().err, names.replace("{d}", str(files)), line)


_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner,
                                                                max_size=4),
    max_leaves=12)
_lines = st.one_of(
    _values.map(json.dumps),
    st.fixed_dictionaries({"type": st.sampled_from(["setup", "scene", "roll", "bid", "move",
                                                    "correction", "verdict", "notice"])},
                          optional={"game": st.sampled_from(["worm-derby", "jungle", "worm-up"]),
                                    "players": _values, "options": _values, "pieces": _values,
                                    "player": _values, "value": _values, "seq": _values})
    .map(lambda d: json.dumps(d, allow_nan=True)),
    st.text(max_size=30))


@settings(max_examples=40, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(lines=st.lists(_lines, min_size=1, max_size=4))
def test_made_up_records_are_judged_or_refused_in_one_line(tmp_path, capfd, lines):
    path = tmp_path / "made.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8", errors="surrogatepass")
    code = _run(["referee", str(path)])
    err = capfd.readouterr().err
    if code != 0:
        _one_line(code, err, str(path), "referee")


@settings(max_examples=30, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(scene=_values | st.fixed_dictionaries({"pieces": st.lists(st.fixed_dictionaries(
    {"kind": st.sampled_from(["coin", "tile", "post", "die"]), "x": _values, "y": _values}),
    max_size=3)}))
def test_made_up_scenes_are_fitted_or_refused_in_one_line(tmp_path, capfd, scene):
    path = tmp_path / "made.json"
    path.write_text(json.dumps(scene, allow_nan=True), encoding="utf-8")
    code = _run(["fit", str(path), "--from", "0,0", "--to", "100,0"])
    err = capfd.readouterr().err
    if code != 0:
        _one_line(code, err, str(path), "fit")
