"""Confirming pieces at their known poses: the last accepted table helps read the next one.

Finding a piece from nothing is hard where it touches another or lies in a shadow; confirming
it where it lay is much easier. Given a still frame, the reading vision made of it and the last
accepted table (plain :class:`tabletop.scene.Piece` values in table mm, from whoever keeps the
game: vision knows no rules), each piece of the accepted table that the reading lacks is looked
for at its own pose, by the edges its outline would make:

- a tile: profiles across each of its four sides at several places along them;
- a coin: rays out across its rim all round;
- a post: rays across its top's rim where it meets the table (elsewhere its wall, leaning away
  from the camera, lies beyond the rim);

where neither the reading's pieces nor the accepted table's other pieces cover the profile.
Each profile is read in colour (CIE Lab): the colour of the piece's face just inside the
expected edge against the colour just beyond it; the edge is *seen* there when the two differ
(``min_contrast``) and the steepest change from one to the other lies where the piece's
outline would be (the top face's edge, or the foot's on the sides that show the wall, within
``edge_tol_mm``). A piece is:

- ``seen`` when most of its open edge places show its edge, on sides that pin its centre both
  ways (a tile: two perpendicular sides; a round piece: rays over 150 degrees of its rim), and
  its face all round stands out from the table all round (by ``seen_contrast`` and by a share
  of what pieces surely there show: those the reading found where the accepted table had
  them), the way theirs does (the face's colour less the table's points as theirs does: a
  check of a patterned cloth darker than the checks round it, whose edges cross a coin's rim
  where a coin lay, is no pale coin's face);
- ``absent`` where such pieces stand out plainly from this table and here the face looks like
  the table, with almost no edge: the table shows plainly there (on a white table, where
  white pieces barely stand out, nothing is ever ``absent``);
- ``unclear`` otherwise (covered by other pieces, out of view, in a lamp's glare, or edges
  elsewhere).

A piece seen at its pose is added to the reading (its confidence the share of its open edge
places that showed its edge). A tile of the reading that overlapped it was a misplaced reading
of it and is left out (tiles lie flat: two cannot overlap); a coin read near a missing one
leaves it unchecked (a coin may be laid partly on another). The other way round, a piece in the
reading where the accepted table had none of its kind is checked at its own pose too, and left
out when the table shows plainly there (a phantom in the wood grain). Other kinds (segments,
tokens) are left as read (``unclear``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

import cv2
import numpy as np

from calibration.model import Calibration
from tabletop.pieceset import PieceSet, hex_to_rgb
from tabletop.scene import Piece, Scene
from vision.piece_pairs import nearest_pairs
from vision.sampling import REMAP_MAX, remap_layout
from vision.segment_confirm import (
    SegmentConfirmConfig,
    conserve_segments,
    rgb_to_lab,
    segment_share,
)
from vision.topview import CameraGeometry, estimate_camera

SEEN, ABSENT, UNCLEAR = "seen", "absent", "unclear"
CHECKED_KINDS: tuple[str, ...] = ("tile", "coin", "post")
"""The kinds whose outline is checked; other kinds are left as read."""


@dataclass(frozen=True)
class ConfirmConfig:
    """How pieces are confirmed at their poses.

    Attributes:
        step_mm: Spacing of the samples along a profile.
        edge_tol_mm: The edge is seen within this of where the piece's outline would be...
        search_mm: ...the steepest change being looked for this far either side of it.
        reach_mm: How far past the outline a profile reads the table (and inside it the face).
        gap_mm: The face and the table are read this far from the outline (clear of its blur).
        face_share: The face is read over this share of the piece's half size inside the
            outline (at most ``reach_mm``): its plain border, not a coin's symbol.
        min_contrast: Least colour difference (CIE Lab, L in 0..100) between face and table
            for an edge to be seen...
        noise_factor: ...and at least this many times the table's own spread beyond it.
        min_step: The steepest change at the edge crosses at least this share of the
            difference within ``step_span_mm`` (a sharp edge, not a slow shading).
        step_span_mm: See ``min_step``.
        tile_places: Profiles across each side of a tile, evenly over its middle 80 %
            (those within 3 % of the side's middle, where a back's cross meets it, left out:
            eight make six).
        coin_rays: Rays round a coin's rim.
        cover_mm: A profile closer than this to another piece's outline is covered.
        same_mm: A reading piece of the same kind this near a known one is that piece.
        overlap: A reading piece of the same kind nearer than this share of the size to a
            known piece seen at its pose was a misplaced reading of it.
        min_open: Fewest open places for a tile's side to be judged.
        side_seen: Share of a side's open places that must show its edge for the side to be
            seen.
        coin_min_open: Fewest open rays for a round piece (a coin, a post's top) to be
            judged...
        rim_span_deg: ...and the rays that show its rim must span this much of it.
        seen_share: Share of all open places that must show the edge for ``seen``...
        seen_contrast: ...the face all round differing this much from the table all round
            (the contrast)...
        seen_of_reference: ...and at least this share of the contrast of pieces of its kind
            surely there (those the reading found where the known table had them).
        absent_reference: ``absent`` only where pieces of its kind stand out from the table
            by this contrast at least (a white coin on a white table never looks absent)...
        absent_of_reference: ...the contrast at the piece less than this share of theirs...
        absent_seen: ...and at most this share of the open places showing an edge there.
        reference_pieces: How many pieces surely there give the reference contrast.
        seen_alike: For ``seen``, the face's colour less the table's (CIE Lab) points within
            this cosine of the way it points for pieces of its kind surely there (their
            median), where there are such pieces.
        glare_l: A profile whose face or table is this light (CIE L, 0..100) in more than a
            quarter of its samples is washed out (a lamp's glare): it is not read.
    """

    step_mm: float = 0.5
    edge_tol_mm: float = 1.5
    search_mm: float = 3.0
    reach_mm: float = 6.0
    gap_mm: float = 1.0
    face_share: float = 0.3
    min_contrast: float = 6.0
    noise_factor: float = 3.0
    min_step: float = 0.45
    step_span_mm: float = 2.0
    tile_places: int = 8
    coin_rays: int = 24
    cover_mm: float = 1.5
    same_mm: float = 4.0
    overlap: float = 0.7
    min_open: int = 3
    side_seen: float = 0.6
    coin_min_open: int = 8
    rim_span_deg: float = 150.0
    seen_share: float = 0.6
    seen_contrast: float = 12.0
    seen_of_reference: float = 0.35
    absent_reference: float = 20.0
    absent_of_reference: float = 0.2
    absent_seen: float = 0.3
    reference_pieces: int = 3
    seen_alike: float = 0.5
    glare_l: float = 97.0


@dataclass(frozen=True)
class Check:
    """What one piece's pose showed.

    Attributes:
        piece: The piece looked for.
        status: ``seen``, ``absent`` or ``unclear``.
        open: Edge places not covered by other pieces (and in view).
        edges: Of those, the places that showed the piece's edge where it would be.
        flat: Of those, the places that showed no colour change across the outline.
        sides: A tile's sides seen (a coin: 0).
        contrast: Colour difference (CIE Lab) between the face all round (inside the
            outline, where open) and the table all round (beyond it).
        way: That difference (face less table, CIE Lab) as a unit vector.
    """

    piece: Piece
    status: str
    open: int
    edges: int
    flat: int
    sides: int = 0
    contrast: float = 0.0
    way: tuple[float, float, float] = (0.0, 0.0, 0.0)

    @property
    def share(self) -> float:
        """The share of open places that showed the edge (0 when none is open)."""
        return self.edges / self.open if self.open else 0.0


def _as_many_read(piece: Piece, read: list[Piece], known: Scene) -> bool:
    """Whether ``piece``, a coin of a suit the known table has, is not missing but moved: the
    reading (with what was added) holds as many coins of its suit as the known table. Coins
    are not made or lost between two still tables (a coin taken off lowers the count, never
    raises it), so one of them read elsewhere is this one moved, and a coin confirmed at its
    old pose would be one too many (issue 13, play 199934: a worm's coin lifted by its move
    was seen at 0.78 where it had lain, the worm read a coin long, and a ``steps`` foul went
    uncalled). Only coins whose suit is read are counted."""
    if piece.kind != "coin" or piece.suit is None:
        return False
    want = sum(1 for q in known.pieces if q.kind == "coin" and q.suit == piece.suit)
    have = sum(1 for q in read if q.kind == "coin" and q.suit == piece.suit)
    return have >= want


@dataclass(frozen=True)
class Confirmation:
    """The reading put right by the known table.

    Attributes:
        scene: The reading with the pieces seen at their poses added (at the end) and the
            misplaced or phantom readings left out.
        known: Checks of the known pieces the reading lacked.
        new: Checks of the reading's pieces where the known table had none of their kind.
        confirmed: Indices in ``scene`` of the pieces added.
        dropped: Indices in the reading of the pieces left out.
    """

    scene: Scene
    known: tuple[Check, ...] = ()
    new: tuple[Check, ...] = ()
    confirmed: tuple[int, ...] = ()
    dropped: tuple[int, ...] = ()


@dataclass(frozen=True)
class _Body:
    """A piece's outline as the camera sees it: its foot and its raised top on the table
    plane (where the top is seen), round (``half`` a radius) or square (``half`` half a
    side, at ``angle``)."""

    foot: np.ndarray
    top: np.ndarray
    half: float
    half_top: float
    angle: float | None

    def distance(self, pts: np.ndarray) -> np.ndarray:
        """Distance (mm) from points (N, 2) to the outline swept from foot to top (<= 0:
        inside)."""
        if self.angle is None:
            d = self.top - self.foot
            dd = float(d @ d)
            t = np.clip(((pts - self.foot) @ d) / dd, 0.0, 1.0) if dd > 1e-12 else \
                np.zeros(len(pts))
            near = self.foot + t[:, None] * d
            return np.hypot(*(pts - near).T) - self.half_top
        return np.minimum(_square_distance(pts, self.foot, self.half, self.angle),
                          _square_distance(pts, self.top, self.half_top, self.angle))


def _square_distance(pts: np.ndarray, c: np.ndarray, half: float, angle: float) -> np.ndarray:
    ca, sa = math.cos(angle), math.sin(angle)
    d = pts - c
    lx, ly = d[:, 0] * ca + d[:, 1] * sa, -d[:, 0] * sa + d[:, 1] * ca
    ox, oy = np.maximum(np.abs(lx) - half, 0.0), np.maximum(np.abs(ly) - half, 0.0)
    outside = np.hypot(ox, oy)
    inside = -np.minimum(half - np.abs(lx), half - np.abs(ly))
    return np.where((ox > 0) | (oy > 0), outside, inside)


class FrameColours:
    """Colours (CIE Lab) of one frame at table points, by the calibration."""

    def __init__(self, frame_bgr: np.ndarray, calibration: Calibration) -> None:
        self.frame = frame_bgr if frame_bgr.ndim == 3 else cv2.cvtColor(frame_bgr,
                                                                      cv2.COLOR_GRAY2BGR)
        self.calibration = calibration
        h, w = self.frame.shape[:2]
        self.size_wh = (w, h)

    def lab(self, points_mm: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """``(lab, inside)``: Lab colours (..., 3) at table points (..., 2), and whether each
        point is seen in the frame (..., )."""
        pts = np.asarray(points_mm, float)
        shape = pts.shape[:-1]
        flat = pts.reshape(-1, 2)
        if not len(flat):
            return np.zeros((*shape, 3), np.float32), np.zeros(shape, bool)
        px = self.calibration.to_image(flat)
        w, h = self.size_wh
        inside = (px[:, 0] >= 0) & (px[:, 0] <= w - 1) & (px[:, 1] >= 0) & (px[:, 1] <= h - 1)
        inside &= np.all(np.isfinite(px), axis=1)
        px = np.where(np.isfinite(px), px, 0.0)
        x0 = int(np.clip(np.floor(px[:, 0].min()), 0, w - 1))
        y0 = int(np.clip(np.floor(px[:, 1].min()), 0, h - 1))
        x1 = int(np.clip(np.ceil(px[:, 0].max()) + 2, x0 + 1, w))
        y1 = int(np.clip(np.ceil(px[:, 1].max()) + 2, y0 + 1, h))
        crop = self.frame[y0:y1, x0:x1].astype(np.float32)
        m = (px - np.array([x0, y0])).astype(np.float32)
        n = len(m)
        if max(crop.shape[:2]) > REMAP_MAX:  # pragma: no cover - points spread over a huge frame
            xi = np.clip(np.round(m[:, 0]).astype(int), 0, crop.shape[1] - 1)
            yi = np.clip(np.round(m[:, 1]).astype(int), 0, crop.shape[0] - 1)
            bgr = crop[yi, xi]
        else:
            rows, cols = remap_layout(n)
            if rows * cols > n:
                m = np.concatenate([m, np.zeros((rows * cols - n, 2), np.float32)])
            bgr = cv2.remap(crop, m.reshape(rows, cols, 2), None, cv2.INTER_LINEAR,
                            borderMode=cv2.BORDER_REPLICATE).reshape(-1, 3)[:n]
        # 8-bit Lab (OpenCV's float conversion is a hundred times slower), back to L 0..100
        lab8 = cv2.cvtColor(np.clip(np.rint(bgr), 0, 255).astype(np.uint8).reshape(-1, 1, 3),
                            cv2.COLOR_BGR2Lab).reshape(-1, 3).astype(np.float32)
        lab = (lab8 - np.array([0.0, 128.0, 128.0], np.float32)) * np.array(
            [100.0 / 255.0, 1.0, 1.0], np.float32)
        return lab.reshape(*shape, 3), inside.reshape(shape)


class Confirmer:
    """Checks pieces at their poses in frames of one calibrated camera.

    Args:
        calibration: The camera's calibration.
        pieces: The piece set (sizes and heights).
        config: How pieces are confirmed.
        kinds: The kinds of piece vision looks for (only those are checked); None: all.
    """

    def __init__(self, calibration: Calibration, pieces: PieceSet | None = None,
                 config: ConfirmConfig | None = None,
                 kinds: tuple[str, ...] | None = None) -> None:
        self.calibration = calibration
        self.pieces = pieces or PieceSet()
        self.config = config or ConfirmConfig()
        self.kinds = tuple(k for k in CHECKED_KINDS if kinds is None or k in kinds)
        self.segments = kinds is None or "segment" in kinds
        self.segment_config = SegmentConfirmConfig()
        self._segment_lab = {name: rgb_to_lab(hex_to_rgb(v))
                             for name, v in self.pieces.segment_colours.items()}
        self.camera: CameraGeometry = estimate_camera(calibration)
        self._bodies: dict[Piece, _Body] = {}
        # OpenCV builds its Lab tables on the first conversion (a third of a second): now,
        # not on the first still table
        cv2.cvtColor(np.zeros((1, 1, 3), np.uint8), cv2.COLOR_BGR2Lab)

    # ------------------------------------------------------------------ geometry

    def body(self, piece: Piece) -> _Body:
        """A piece's outline as the camera sees it."""
        made = self._bodies.get(piece)
        if made is None:
            made = self.bodies([piece])[0]
        return made

    def bodies(self, pieces: list[Piece]) -> list[_Body]:
        """Each piece's outline as the camera sees it (those not made yet made together: one
        :meth:`CameraGeometry.seen_at` for all, row by row the same as one by one)."""
        got = [self._bodies.get(p) for p in pieces]
        todo = [i for i, b in enumerate(got) if b is None]
        if not todo:
            return got  # type: ignore[return-value]
        if len(self._bodies) + len(todo) > 4096:
            self._bodies.clear()
        heights = [self.pieces.height_mm(pieces[i].kind) for i in todo]
        feet = np.array([pieces[i].centre_mm for i in todo], float).reshape(-1, 2)
        tops = self.camera.seen_at(feet, np.array(heights, float))
        H = self.camera.height_mm
        for n, i in enumerate(todo):
            piece, height = pieces[i], heights[n]
            kind = piece.kind
            size = self.pieces.size_mm(kind) if kind != "die" else self.pieces.die_mm
            k = H / max(H - height, 1e-6)
            angle = math.radians(piece.angle_deg or 0.0) if kind in ("tile", "token", "die") \
                else None
            got[i] = self._bodies[piece] = _Body(feet[n].copy(), tops[n].copy(), size / 2,
                                                 size / 2 * k, angle)
        return got  # type: ignore[return-value]

    # ------------------------------------------------------------------ one piece

    def _profiles(self, body: _Body) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray,
                                              np.ndarray]:
        """The profiles across a piece's outline: ``(base (P, 2), normal (P, 2), side (P,),
        top edge (P,), silhouette edge (P,))``, distances along the normal from ``base``."""
        cfg = self.config
        if body.angle is None:
            a = np.linspace(0.0, 2 * math.pi, cfg.coin_rays, endpoint=False)
            normal = np.stack([np.cos(a), np.sin(a)], axis=1)
            base = np.repeat(body.top[None], len(a), axis=0)
            side = np.arange(len(a))
            top_edge = np.full(len(a), body.half_top)
            d = body.foot - body.top
            along = normal @ d
            across = normal[:, 0] * d[1] - normal[:, 1] * d[0]
            foot_edge = along + np.sqrt(np.maximum(body.half ** 2 - across ** 2, 0.0))
            # rays over a tall piece's wall (a post leaning away from the camera) do not end
            # at its top's rim: only the rim against the table is read
            rim = foot_edge - top_edge <= 2 * cfg.edge_tol_mm
            normal, base, side = normal[rim], base[rim], side[rim]
            top_edge, foot_edge = top_edge[rim], foot_edge[rim]
        else:
            n = cfg.tile_places
            s = np.linspace(-0.4, 0.4, n + 1 if n % 2 else n)
            s = s[np.abs(s) > 0.06] * 2 * body.half_top
            bases, normals, sides = [], [], []
            for k in range(4):
                th = body.angle + k * math.pi / 2
                nk = np.array([math.cos(th), math.sin(th)])
                tk = np.array([-nk[1], nk[0]])
                bases.append(body.top + s[:, None] * tk)
                normals.append(np.repeat(nk[None], len(s), axis=0))
                sides.append(np.full(len(s), k))
            base, normal, side = np.concatenate(bases), np.concatenate(normals), \
                np.concatenate(sides)
            top_edge = np.full(len(base), body.half_top)
            foot_edge = normal @ (body.foot - body.top) + body.half
        return base, normal, side, top_edge, foot_edge

    def check(self, colours: FrameColours, piece: Piece, others: list[Piece],
              reference: float | None = None,
              reference_way: tuple[float, float, float] | None = None) -> Check:
        """Whether ``piece`` lies at its pose in the frame.

        Args:
            colours: The frame.
            piece: The piece looked for.
            others: The pieces that may cover parts of its outline.
            reference: The contrast (:attr:`Check.contrast`) of pieces of its kind that are
                surely there in this frame (None: unknown). The table shows plainly only
                where pieces stand out from it: without a reference nothing is ``absent``.
            reference_way: The way their faces differ from the table (:attr:`Check.way`);
                None: unknown (any way).
        """
        cfg = self.config
        if piece.kind not in self.kinds:
            return Check(piece, UNCLEAR, 0, 0, 0)
        body = self.body(piece)
        base, normal, side, top_edge, foot_edge = self._profiles(body)
        lo = np.minimum(top_edge, foot_edge)
        hi = np.maximum(top_edge, foot_edge)
        inner = min(cfg.reach_mm, cfg.face_share * body.half)
        # every profile: the face (its first samples), the outline, the table (its last ones)
        n_face = int(inner / cfg.step_mm + 1e-9) + 1
        n_table = int(cfg.reach_mm / cfg.step_mm + 1e-9) + 1
        first_table = math.ceil((inner + 2 * cfg.gap_mm + float(np.max(hi - lo)))
                                / cfg.step_mm - 1e-9)
        dist = (lo - cfg.gap_mm - inner)[:, None] + cfg.step_mm * np.arange(
            first_table + n_table)[None]
        pts = base[:, None] + dist[..., None] * normal[:, None]
        face_band = np.zeros(dist.shape[1], bool)
        face_band[:n_face] = True
        beyond_band = np.zeros(dist.shape[1], bool)
        beyond_band[first_table:] = True
        lab, seen_px = colours.lab(pts)
        covered = ~np.all(seen_px, axis=1)
        span = pts.reshape(-1, 2)
        centre, reach = span.mean(axis=0), float(np.max(np.hypot(*(span - span.mean(axis=0)).T)))
        near = np.zeros(len(span), bool)
        for b in self._near_bodies(others, centre, reach):
            far = reach + cfg.cover_mm + math.sqrt(2) * b.half_top + float(
                np.hypot(*(b.top - b.foot)))
            if math.dist(centre, b.foot) <= far:
                near |= b.distance(span) < cfg.cover_mm
        covered |= np.any(near.reshape(pts.shape[:2]), axis=1)
        # a lamp's glare washes everything out to white: nothing can be told there
        bands = face_band | beyond_band
        covered |= np.mean(lab[:, bands, 0] >= cfg.glare_l, axis=1) > 0.25
        edges, flat = self._read_profiles(lab, dist, face_band, beyond_band, lo, hi)
        open_ = ~covered
        n_open, n_edge = int(open_.sum()), int((edges & open_).sum())
        n_flat = int((flat & open_).sum())
        contrast = 0.0
        way = (0.0, 0.0, 0.0)
        if n_open:
            face = np.median(lab[open_][:, face_band].reshape(-1, 3), axis=0)
            table = np.median(lab[open_][:, beyond_band].reshape(-1, 3), axis=0)
            contrast = float(np.linalg.norm(face - table))
            if contrast > 1e-6:
                way = tuple(float(v) for v in (face - table) / contrast)
        sides = 0
        if body.angle is None:
            ok = n_open >= cfg.coin_min_open and n_edge >= cfg.seen_share * n_open
            if ok:  # the rays that saw the rim go round enough of it to pin its centre
                ang = np.sort(np.arctan2(normal[edges & open_, 1], normal[edges & open_, 0]))
                gaps = np.diff(np.r_[ang, ang[0] + 2 * math.pi])
                ok = float(gaps.max()) <= 2 * math.pi - math.radians(cfg.rim_span_deg)
        else:
            seen_sides = []
            for k in range(4):
                mine = open_ & (side == k)
                if mine.sum() >= cfg.min_open and (edges & mine).sum() >= \
                        cfg.side_seen * mine.sum():
                    seen_sides.append(k)
            sides = len(seen_sides)
            both = {k % 2 for k in seen_sides} == {0, 1}
            ok = both and n_open > 0 and n_edge >= cfg.seen_share * n_open
        enough = n_open >= (cfg.coin_min_open if body.angle is None else 2 * cfg.min_open)
        ref = reference or 0.0
        alike = reference_way is None or float(np.dot(way, reference_way)) >= cfg.seen_alike
        if ok and alike and contrast >= max(cfg.seen_contrast, cfg.seen_of_reference * ref):
            status = SEEN
        elif enough and ref >= cfg.absent_reference and \
                contrast < cfg.absent_of_reference * ref and n_edge <= cfg.absent_seen * n_open:
            status = ABSENT
        else:
            status = UNCLEAR
        return Check(piece, status, n_open, n_edge, n_flat, sides, round(contrast, 2),
                     way)

    def _near_bodies(self, others: list[Piece], centre: np.ndarray, reach: float
                     ) -> list[_Body]:
        """The bodies of ``others`` that may come within ``cover_mm`` of the profiles (``reach``
        round ``centre``): all at once, a millimetre's slack, so the caller's own test (one by
        one) decides every one that could pass it."""
        if not others:
            return []
        bodies = self.bodies(others)
        foot = np.array([b.foot for b in bodies])
        lean = np.array([b.top for b in bodies]) - foot
        half = np.array([b.half_top for b in bodies])
        far = reach + self.config.cover_mm + math.sqrt(2) * half + np.hypot(lean[:, 0],
                                                                             lean[:, 1])
        d = np.hypot(foot[:, 0] - centre[0], foot[:, 1] - centre[1])
        return [bodies[i] for i in np.flatnonzero(d <= far + 1.0)]

    def _read_profiles(self, lab: np.ndarray, dist: np.ndarray, face_band: np.ndarray,
                       beyond_band: np.ndarray, lo: np.ndarray, hi: np.ndarray
                       ) -> tuple[np.ndarray, np.ndarray]:
        """For each profile (``lab`` (P, R, 3), at ``dist`` (P, R) mm along it; the face and
        the table beyond are the samples ``face_band`` and ``beyond_band`` (R,) of every one):
        whether the edge is where the outline would be, and whether the face and the beyond
        look alike (no edge at all)."""
        cfg = self.config
        face = np.median(lab[:, face_band], axis=1)
        beyond = np.median(lab[:, beyond_band], axis=1)
        spread = np.median(np.linalg.norm(lab[:, beyond_band] - beyond[:, None], axis=2), axis=1)
        diff = face - beyond
        contrast = np.linalg.norm(diff, axis=1)
        need = np.maximum(cfg.min_contrast, cfg.noise_factor * spread)
        flat = contrast < need
        u = diff / np.maximum(contrast, 1e-6)[:, None]
        proj = np.einsum("prc,pc->pr", lab - beyond[:, None], u) / np.maximum(contrast,
                                                                                1e-6)[:, None]
        k = max(1, round(cfg.step_span_mm / 2 / cfg.step_mm))  # the change over the span
        grad = np.full(proj.shape, -np.inf)
        grad[:, k:-k] = proj[:, :-2 * k] - proj[:, 2 * k:]
        band = (dist >= lo[:, None] - cfg.search_mm) & (dist <= hi[:, None] + cfg.search_mm)
        grad = np.where(band, grad, -np.inf)
        j = np.argmax(grad, axis=1)
        rows = np.arange(len(j))
        g1 = grad[rows, j]
        g0 = grad[rows, np.maximum(j - 1, 0)]
        g2 = grad[rows, np.minimum(j + 1, grad.shape[1] - 1)]
        den = g0 - 2 * g1 + g2
        good = np.isfinite(g0) & np.isfinite(g2) & (den < -1e-9)
        sub = np.where(good, np.clip(0.5 * (g0 - g2) / np.where(good, den, -1.0), -0.5, 0.5),
                       0.0)
        at = dist[rows, j] + sub * cfg.step_mm
        edges = (~flat) & (g1 >= cfg.min_step) & (at >= lo - cfg.edge_tol_mm) & \
            (at <= hi + cfg.edge_tol_mm)
        return edges, flat

    # ------------------------------------------------------------------ a reading

    def confirm(self, frame_bgr: np.ndarray, reading: Scene, known: Scene | None
                ) -> Confirmation:
        """The reading of a still frame put right by the known (last accepted) table."""
        if known is None or not len(known):
            return Confirmation(reading)
        cfg = self.config
        colours = FrameColours(frame_bgr, self.calibration)
        read = list(reading.pieces)
        kn = [p for p in known.pieces if p.kind in self.kinds]
        pairs = nearest_pairs(kn, read, cfg.same_mm).pairs
        matched_known = {i for i, _ in pairs}
        matched_read = {j for _, j in pairs}
        missing = [p for i, p in enumerate(kn) if i not in matched_known]
        refs: dict[str, tuple[float | None, tuple[float, float, float] | None]] = {}

        def ref(kind: str) -> tuple[float | None, tuple[float, float, float] | None]:
            if kind not in refs:
                refs[kind] = self._reference(colours, kind, sorted(matched_read), read)
            return refs[kind]

        dropped: set[int] = set()
        added: list[Piece] = []
        checks = []
        for p in missing:
            size = self.pieces.size_mm(p.kind)
            alike = [j for j, q in enumerate(read) if q.kind == p.kind and j not in matched_read
                     and j not in dropped
                     and math.dist(q.centre_mm, p.centre_mm) < cfg.overlap * size]
            others = [q for j, q in enumerate(read) if j not in alike and j not in dropped] + \
                [q for q in known.pieces if q is not p] + added
            if alike and p.kind != "tile":
                # a coin may lie partly on another (tiles cannot): not this one's to settle
                checks.append(Check(p, UNCLEAR, 0, 0, 0))
                continue
            moved = _as_many_read(p, [q for j, q in enumerate(read) if j not in dropped]
                                  + added, known)  # its suit's coins all read: not missing
            c = self.check(colours, p, others, *ref(p.kind))
            checks.append(c)
            if c.status == SEEN and not moved:
                added.append(replace(p, confidence=round(c.share, 3)))
                dropped.update(alike)
        new_checks = []
        for j, q in enumerate(read):
            if j in matched_read or j in dropped or q.kind not in self.kinds:
                continue
            size = self.pieces.size_mm(q.kind)
            if any(p.kind == q.kind and math.dist(p.centre_mm, q.centre_mm) < cfg.overlap * size
                   for p in kn):
                continue  # near a known piece: the referee's to weigh
            others = [r for i, r in enumerate(read) if i != j and i not in dropped] + added
            c = self.check(colours, q, others, ref(q.kind)[0])
            new_checks.append(c)
            if c.status == ABSENT:
                dropped.add(j)
        kept = [q for j, q in enumerate(read) if j not in dropped]
        scene = replace(reading, pieces=(*kept, *added))
        confirmed = tuple(range(len(kept), len(kept) + len(added)))
        gone = tuple(sorted(dropped))
        if self.segments and any(p.kind == "segment" for p in known.pieces):
            places = np.array([p.centre_mm for p in (*scene.pieces, *known.pieces)
                               if p.kind == "segment"], float).reshape(-1, 2)

            def share(p: Piece) -> float:
                others = places[np.hypot(*(places - p.centre_mm).T) > 1.0]
                return segment_share(colours.lab, self.camera.seen_at, p, self._segment_lab,
                                     self.pieces.segment_diameter_mm / 2,
                                     self.pieces.segment_height_mm, self.segment_config, others)

            scene, more, fewer = conserve_segments(scene, known, share, self.segment_config)
            left = [j for j in range(len(read)) if j not in dropped]  # reading index by kept
            gone = tuple(sorted({*gone, *(left[j] for j in fewer if j < len(left))}))
            confirmed = tuple(j - sum(1 for f in fewer if f < j) for j in confirmed
                              if j not in fewer) + more
        return Confirmation(scene, tuple(checks), tuple(new_checks), confirmed, gone)


    def _reference(self, colours: FrameColours, kind: str, there: list[int],
                   read: list[Piece]
                   ) -> tuple[float | None, tuple[float, float, float] | None]:
        """The median contrast of a few pieces of ``kind`` surely there (``there``: indices
        of the reading's pieces found where the known table had them), from those whose
        outline showed, and the way their faces differ from the table (the median of their
        :attr:`Check.way`, made a unit vector); ``(None, None)`` when there are none."""
        n = self.config.reference_pieces
        mine = [j for j in there if read[j].kind == kind]
        vals, ways = [], []
        for j in mine[::max(1, len(mine) // n)][:n]:
            c = self.check(colours, read[j], [q for k, q in enumerate(read) if k != j])
            if c.open and c.edges >= self.config.seen_share * c.open:
                vals.append(c.contrast)
                ways.append(c.way)
        if not vals:
            return None, None
        way = np.median(np.array(ways, float), axis=0)
        norm = float(np.linalg.norm(way))
        return float(np.median(vals)), (tuple(float(v) for v in way / norm) if norm > 1e-6
                                        else None)
