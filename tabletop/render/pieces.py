"""From a scene's pieces to solid shapes: sizes from the piece set, faces, colours, materials.

A coin's symbol is turned by an angle drawn from its position, so a coin that stays put looks the
same in every frame and one that moves turns like a real one.
"""

from __future__ import annotations

import hashlib

from tabletop.pieceset import PieceSet
from tabletop.render.faces import (
    CREAM,
    coin_face,
    die_face,
    hex_bgr,
    plain_face,
    tile_face,
    token_face,
)
from tabletop.render.shapes import Box, Cylinder, Dome, Shape
from tabletop.scene import Piece

COIN_EDGE = (0.62, 0.74, 0.80)
TILE_EDGE = (0.70, 0.76, 0.80)
POST_BLACK = (0.07, 0.07, 0.08)


def symbol_angle(piece: Piece, index: int) -> int:
    """A stable pseudo-random rotation (degrees, a multiple of 5) for a piece's symbol."""
    key = f"{piece.kind}:{piece.x_mm:.1f}:{piece.y_mm:.1f}:{index}".encode()
    return int.from_bytes(hashlib.blake2b(key, digest_size=4).digest(), "little") % 72 * 5


def piece_height_mm(piece: Piece, pieces: PieceSet) -> float:
    """Height of a piece's top above the table (its kind's, :mod:`tabletop.kinds`)."""
    return pieces.height_mm(piece.kind)


def shape_of(piece: Piece, index: int, pieces: PieceSet) -> Shape:
    """The solid that draws ``piece`` (``index`` is its place in the scene)."""
    c = (piece.x_mm, piece.y_mm)
    h = piece_height_mm(piece, pieces)
    angle = float(piece.angle_deg or 0.0)
    if piece.kind == "coin":
        colour = pieces.suit_colours.get(piece.suit) if piece.suit else None
        face = coin_face(pieces.coin_diameter_mm, piece.suit, colour, symbol_angle(piece, index),
                         piece.face or "up")
        return Cylinder(c, h, 0.0, face, pieces.coin_diameter_mm, CREAM, COIN_EDGE,
                        gloss=0.0, shininess=12.0, bevel_mm=0.5,
                        radius_mm=pieces.coin_radius_mm)
    if piece.kind == "tile":
        face_side = piece.face or "down"
        colour = pieces.suit_colours.get(piece.suit) if piece.suit else None
        top = tile_face(pieces.tile_mm, face_side, piece.suit, colour,
                        symbol_angle(piece, index) // 90 * 90)
        return Box(c, h, angle, top, pieces.tile_mm, (0.9, 0.9, 0.9), TILE_EDGE,
                   gloss=0.0, shininess=15.0, bevel_mm=0.7, half_mm=pieces.tile_mm / 2.0)
    if piece.kind == "post":
        r = pieces.post_diameter_mm / 2.0
        return Cylinder(c, h, 0.0, None, 0.0, POST_BLACK, POST_BLACK, gloss=0.25,
                        shininess=30.0, bevel_mm=0.8, radius_mm=r)
    if piece.kind == "segment":
        hexc = pieces.segment_colours.get(piece.color or "", None)
        if hexc is None:
            hexc = next(iter(pieces.segment_colours.values()))
        bgr = hex_bgr(hexc)
        r = pieces.segment_diameter_mm / 2.0
        return Dome(c, r, 0.0, None, 0.0, bgr, bgr, gloss=0.35, shininess=40.0,
                    radius_mm=r)
    if piece.kind == "token":
        face = token_face(pieces.token_mm, piece.id)
        return Box(c, h, angle, face, pieces.token_mm, (0.9, 0.92, 0.92), (0.75, 0.78, 0.8),
                   gloss=0.0, shininess=15.0, bevel_mm=0.3, half_mm=pieces.token_mm / 2.0)
    if piece.kind == "die":
        face = die_face(pieces.die_mm, piece.value)
        return Box(c, h, angle, face, pieces.die_mm, (0.86, 0.88, 0.88), (0.7, 0.72, 0.72),
                   gloss=0.1, shininess=20.0, bevel_mm=1.0, half_mm=pieces.die_mm / 2.0)
    # a pawn: a suit-coloured cylinder
    colour_hex = pieces.suit_colours.get(piece.suit or "", "#808080")
    bgr = hex_bgr(colour_hex)
    return Cylinder(c, h, 0.0, plain_face(14.0, bgr), 14.0, bgr, bgr, gloss=0.2,
                    shininess=25.0, bevel_mm=1.5, radius_mm=7.0)
