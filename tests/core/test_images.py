"""Pictures are checked from their headers before decoding; damaged ones are told apart."""

from __future__ import annotations

import resource
import struct
import zlib

import cv2
import numpy as np
import pytest

from tabletop.errors import InputError
from tabletop.images import NoSuchImage, header_size, read_image


@pytest.fixture
def picture() -> np.ndarray:
    rng = np.random.default_rng(3)
    return rng.integers(0, 255, (120, 160, 3), dtype=np.uint8)


@pytest.mark.parametrize("suffix", [".png", ".jpg", ".bmp", ".webp", ".tif"])
def test_the_size_is_read_from_the_header_of_every_format(tmp_path, picture, suffix):
    path = tmp_path / f"p{suffix}"
    cv2.imwrite(str(path), picture)
    kind_size = header_size(path.read_bytes())
    assert kind_size is not None and kind_size[1:] == (160, 120)
    assert read_image(path).shape == (120, 160, 3)


def test_a_small_file_declaring_a_huge_picture_is_refused_before_decoding(tmp_path):
    def chunk(kind: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + kind + body + struct.pack(
            ">I", zlib.crc32(kind + body))

    path = tmp_path / "bomb.png"
    path.write_bytes(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(
        ">IIBBBBB", 20000, 20000, 8, 2, 0, 0, 0)) + chunk(b"IDAT", zlib.compress(b"\0" * 4096))
        + chunk(b"IEND", b""))
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    with pytest.raises(InputError, match="20000x20000 px"):
        read_image(path)
    assert resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before < 100_000  # KiB


def test_a_jpeg_cut_short_or_damaged_is_refused_naming_the_file(tmp_path, picture, capfd):
    path = tmp_path / "whole.jpg"
    cv2.imwrite(str(path), picture)
    data = path.read_bytes()
    cut = tmp_path / "cut.jpg"
    cut.write_bytes(data[: len(data) // 2])
    with pytest.raises(InputError, match=r"cut\.jpg: the JPEG is cut short"):
        read_image(cut)
    damaged = tmp_path / "damaged.jpg"
    middle = len(data) // 2
    damaged.write_bytes(data[:middle] + b"\xff\x00\x01\x02" + data[middle:])
    with pytest.raises(InputError, match=r"damaged\.jpg: the JPEG is damaged"):
        read_image(damaged)
    assert capfd.readouterr().err == ""  # the library's warning is in the error, not on stderr


def test_a_missing_file_a_folder_and_a_file_that_is_no_picture_are_told_apart(tmp_path):
    with pytest.raises(NoSuchImage, match="no such image file"):
        read_image(tmp_path / "gone.png")
    with pytest.raises(InputError, match="is a folder"):
        read_image(tmp_path)
    (tmp_path / "notes.png").write_text("hello")
    with pytest.raises(InputError, match="not an image"):
        read_image(tmp_path / "notes.png")
