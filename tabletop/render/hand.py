"""A hand and forearm reaching over the table: capsules (forearm, palm, fingers, thumb) ray traced
from the camera, shaded like skin, slightly motion-blurred, casting a soft shadow on the table.

The arm comes in from beyond the image's edge; its fingertips hover ``height_mm`` over the
table at the target, as when a player is about to pick up or put down a piece.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass

import cv2
import numpy as np

from tabletop.render.camera import CameraPose
from tabletop.render.degrade import line_kernel
from tabletop.render.shadows import cast_on_table, fill_hull
from tabletop.render.textures import smooth_noise

SKIN_BGR: tuple[tuple[float, float, float], ...] = (
    (0.50, 0.62, 0.84), (0.42, 0.55, 0.78), (0.30, 0.42, 0.62), (0.20, 0.28, 0.42),
)
"""Skin reflectances (B, G, R), light to dark."""


@dataclass(frozen=True, eq=False)
class Capsule:
    """A segment from ``a_mm`` to ``b_mm`` (world, 3-D) thickened by ``radius_mm``.

    ``limb_mm``, when given, is the (start, end) of the whole limb the capsule is a piece of:
    normals are then taken from the limb's axis, so a chain of capsules shades as one smooth
    tapering limb instead of a string of beads.
    """

    a_mm: np.ndarray
    b_mm: np.ndarray
    radius_mm: float
    limb_mm: tuple[np.ndarray, np.ndarray] | None = None


@dataclass(frozen=True, eq=False)
class HandLayer:
    """The drawn hand, in two windows of the image.

    Attributes:
        roi: (x0, y0, x1, y1) window of ``alpha`` and ``colour`` (empty when out of view).
        alpha: (h, w) float32 coverage in ``roi``.
        colour: (h, w, 3) float32 premultiplied colour in ``roi``.
        shadow_roi: (x0, y0, x1, y1) window of ``shadow``.
        shadow: float32 soft shadow it casts on the table (and on the pieces), in ``shadow_roi``.
    """

    roi: tuple[int, int, int, int]
    alpha: np.ndarray
    colour: np.ndarray
    shadow_roi: tuple[int, int, int, int]
    shadow: np.ndarray

    def alpha_full(self, size: tuple[int, int]) -> np.ndarray:
        """``alpha`` as a whole-image (H, W) array."""
        out = np.zeros((size[1], size[0]), np.float32)
        x0, y0, x1, y1 = self.roi
        out[y0:y1, x0:x1] = self.alpha
        return out

    def lay_onto(self, image: np.ndarray, shadow_strength: float) -> None:
        """Darkens the image by the shadow, then lays the hand over it (in place)."""
        x0, y0, x1, y1 = self.shadow_roi
        image[y0:y1, x0:x1] *= (1.0 - shadow_strength * self.shadow)[..., None]
        x0, y0, x1, y1 = self.roi
        region = image[y0:y1, x0:x1]
        region *= 1.0 - self.alpha[..., None]
        region += self.colour


def hand_capsules(target_mm: tuple[float, float], from_deg: float, height_mm: float,
                  thumb_side: float) -> list[Capsule]:
    """The capsules of a right or left hand (``thumb_side`` +1 or -1) and its arm."""
    a = math.radians(from_deg)
    f = -np.array([math.cos(a), math.sin(a), 0.0])   # toward the fingers
    s = np.array([-f[1], f[0], 0.0])                   # across the hand
    up = np.array([0.0, 0.0, 1.0])
    t = np.array([target_mm[0], target_mm[1], 0.0])
    hh = height_mm
    knuckles = t - f * 72 + up * (hh + 20)
    wrist = t - f * 160 + up * (hh + 36)
    elbow = wrist - f * 280 + up * 75
    shoulder = elbow - f * 300 + up * 160
    caps = [*_tapered(wrist, elbow, 26.0, 34.0, 10), *_tapered(elbow, shoulder, 34.0, 44.0, 6),
            Capsule(wrist, wrist, 27.0)]
    for o in (-21.0, 0.0, 21.0):
        caps.append(Capsule(wrist + s * o * 0.6 + up * 2, knuckles + s * o, 15.5))
    lengths = {-27.0: 52.0, -9.0: 66.0, 9.0: 72.0, 27.0: 64.0}  # pinky .. index
    for o, length in lengths.items():
        off = o * thumb_side
        fi = f - s * (off / 420.0)  # fingers close toward the grip
        fi = fi / np.linalg.norm(fi)
        base = knuckles + s * off
        bend = base + fi * 0.5 * length - up * 6
        tip = bend + fi * 0.42 * length - up * 16
        caps.append(Capsule(base, bend, 9.0))
        caps.append(Capsule(bend, tip, 8.0))
    t_base = wrist + f * 25 + s * thumb_side * 34 - up * 4
    t_mid = t_base + f * 42 + s * thumb_side * 18 - up * 14
    t_tip = t_mid + f * 30 - s * thumb_side * 4 - up * 10
    caps += [Capsule(t_base, t_mid, 11.5), Capsule(t_mid, t_tip, 10.0)]
    return caps


def _tapered(a: np.ndarray, b: np.ndarray, ra: float, rb: float, n: int) -> list[Capsule]:
    """A limb from ``a`` to ``b`` narrowing from ``rb`` to ``ra``, as ``n`` short capsules."""
    ks = np.linspace(0.0, 1.0, n + 1)
    return [Capsule(a + (b - a) * k0, a + (b - a) * k1, ra + (rb - ra) * (k0 + k1) / 2.0,
                    (a, b)) for k0, k1 in itertools.pairwise(ks)]


def intersect_capsule(origin: np.ndarray, rd: np.ndarray, cap: Capsule) -> tuple[np.ndarray,
                                                                                  np.ndarray]:
    """Ray parameters and normals of the first hits of unit rays ``rd`` (..., 3) on a capsule."""
    pa, pb, r = cap.a_mm, cap.b_mm, cap.radius_mm
    ba = pb - pa
    oa = origin - pa
    baba = float(ba @ ba)
    bard = rd @ ba
    baoa = float(oa @ ba)
    rdoa = rd @ oa
    oaoa = float(oa @ oa)
    a = baba - bard * bard
    b = baba * rdoa - baoa * bard
    c = baba * oaoa - baoa * baoa - r * r * baba
    h = b * b - a * c
    with np.errstate(divide="ignore", invalid="ignore"):
        t_body = (-b - np.sqrt(np.maximum(h, 0.0))) / a
        y = baoa + t_body * bard
        body = (h >= 0) & (a > 1e-12) & (y > 0) & (y < baba)
        end = np.where((y <= 0) | ~np.isfinite(y), 0.0, 1.0)[..., None]
        oc = origin - (pa + end * ba)
        b2 = np.einsum("...k,...k->...", rd, oc)
        c2 = np.einsum("...k,...k->...", oc, oc) - r * r
        h2 = b2 * b2 - c2
        t_cap = -b2 - np.sqrt(np.maximum(h2, 0.0))
    t = np.where(body, t_body, np.where(h2 > 0, t_cap, np.inf))
    t = np.where(t > 0, t, np.inf)
    p = origin + np.where(np.isfinite(t), t, 0.0)[..., None] * rd
    if cap.limb_mm is not None:
        pa, ba = cap.limb_mm[0], cap.limb_mm[1] - cap.limb_mm[0]
        baba = float(ba @ ba)
    if baba > 0:
        k = np.clip(((p - pa) @ ba) / baba, 0.0, 1.0)[..., None]
    else:
        k = np.zeros((*p.shape[:-1], 1))
    n = p - pa - k * ba
    n /= np.linalg.norm(n, axis=-1, keepdims=True) + 1e-9
    return t, n


def _capsule_window(cap: Capsule, pose: CameraPose) -> tuple[int, int, int, int] | None:
    lo = np.minimum(cap.a_mm, cap.b_mm) - cap.radius_mm
    hi = np.maximum(cap.a_mm, cap.b_mm) + cap.radius_mm
    corners = np.array([[x, y, z] for x in (lo[0], hi[0]) for y in (lo[1], hi[1])
                        for z in (lo[2], hi[2])])
    px = pose.project(corners)
    if not np.all(np.isfinite(px)):
        return None
    w, h = pose.image_size
    x0, y0 = max(0, math.floor(px[:, 0].min()) - 1), max(0, math.floor(px[:, 1].min()) - 1)
    x1, y1 = min(w, math.ceil(px[:, 0].max()) + 2), min(h, math.ceil(px[:, 1].max()) + 2)
    if x1 <= x0 or y1 <= y0:
        return None
    return (x0, y0, x1, y1)


def _clip_box(box: list[float], pad: int, size: tuple[int, int]) -> tuple[int, int, int, int]:
    w, h = size
    x0, y0 = max(0, math.floor(box[0]) - pad), max(0, math.floor(box[1]) - pad)
    x1, y1 = min(w, math.ceil(box[2]) + pad + 1), min(h, math.ceil(box[3]) + pad + 1)
    return (x0, y0, max(x0, x1), max(y0, y1))


def _shadow(pose: CameraPose, caps: list[Capsule], light: np.ndarray,
            softness_px: float) -> tuple[tuple[int, int, int, int], np.ndarray]:
    ring = np.linspace(0, 2 * math.pi, 16, endpoint=False)
    polys = []
    for cap in caps:
        disc = np.column_stack([np.cos(ring), np.sin(ring)]) * cap.radius_mm
        pts = np.concatenate([cast_on_table(cap.a_mm[None], light) + disc,
                              cast_on_table(cap.b_mm[None], light) + disc])
        px = pose.project_table(pts)
        if np.all(np.isfinite(px)):
            polys.append(px)
    if not polys:
        return (0, 0, 0, 0), np.zeros((0, 0), np.float32)
    allpx = np.concatenate(polys)
    roi = _clip_box([allpx[:, 0].min(), allpx[:, 1].min(), allpx[:, 0].max(),
                     allpx[:, 1].max()], int(3 * softness_px) + 2, pose.image_size)
    x0, y0, x1, y1 = roi
    shadow = np.zeros((y1 - y0, x1 - x0), np.float32)
    if shadow.size == 0:
        return roi, shadow
    for px in polys:
        fill_hull(shadow, px - [x0, y0])
    return roi, cv2.GaussianBlur(np.minimum(shadow, 1.0), (0, 0), softness_px)


def draw_hand(pose: CameraPose, caps: list[Capsule], light: np.ndarray, ambient: float,
              rng: np.random.Generator, blur_len_px: float = 4.0,
              shadow_softness_px: float = 6.0) -> HandLayer:
    """Ray traces the capsules and returns the hand's layer and shadow."""
    wins = [(cap, win) for cap in caps if (win := _capsule_window(cap, pose)) is not None]
    shadow_roi, shadow = _shadow(pose, caps, light, shadow_softness_px)
    if not wins:
        empty = np.zeros((0, 0), np.float32)
        return HandLayer((0, 0, 0, 0), empty, np.zeros((0, 0, 3), np.float32), shadow_roi,
                         shadow)
    pad = int(blur_len_px) + 4
    bx0, by0, bx1, by1 = _clip_box([min(w[0] for _, w in wins), min(w[1] for _, w in wins),
                                    max(w[2] for _, w in wins), max(w[3] for _, w in wins)],
                                   pad, pose.image_size)
    # traced on a half-resolution grid (a moving, blurred hand needs no more), then upsampled
    bw, bh = bx1 - bx0, by1 - by0
    hw, hh = (bw + 1) // 2, (bh + 1) // 2
    depth = np.full((hh, hw), np.inf, np.float32)
    normal = np.zeros((hh, hw, 3), np.float32)
    origin = np.asarray(pose.centre_mm, dtype=float)
    for cap, (x0, y0, x1, y1) in wins:
        i0, j0 = (x0 - bx0) // 2, (y0 - by0) // 2
        i1, j1 = min(hw, (x1 - bx0 + 1) // 2 + 1), min(hh, (y1 - by0 + 1) // 2 + 1)
        u, v = np.meshgrid(bx0 + 2.0 * np.arange(i0, i1) + 0.5,
                           by0 + 2.0 * np.arange(j0, j1) + 0.5)
        rd = pose.rays(u, v)
        rd /= np.linalg.norm(rd, axis=-1, keepdims=True)
        t, n = intersect_capsule(origin, rd, cap)
        region = depth[j0:j1, i0:i1]
        closer = t < region
        if not np.any(closer):
            continue
        region[closer] = t[closer]
        normal[j0:j1, i0:i1][closer] = n[closer]
    # smooth the creases where capsules meet (a hand is one surface, not beads on a string)
    normal = cv2.GaussianBlur(normal, (0, 0), 1.1)
    mask = cv2.resize(np.isfinite(depth).astype(np.float32), (2 * hw, 2 * hh),
                      interpolation=cv2.INTER_LINEAR)[:bh, :bw]
    normal = cv2.resize(normal, (2 * hw, 2 * hh), interpolation=cv2.INTER_LINEAR)[:bh, :bw]
    normal /= np.linalg.norm(normal, axis=-1, keepdims=True) + 1e-6
    skin = np.asarray(SKIN_BGR[int(rng.integers(len(SKIN_BGR)))], np.float32)
    ndl = normal @ light.astype(np.float32)
    wrap = np.clip((ndl + 0.35) / 1.35, 0.0, 1.0)
    diffuse = ambient + (1.0 - ambient) * wrap / max(float(light[2]), 0.3)
    rim = np.sqrt(np.clip(normal[..., 2], 0.0, 1.0))  # a touch of occlusion at the silhouettes
    blotch = smooth_noise(rng, mask.shape, (12.0, 12.0)) * 0.04
    col = skin[None, None, :] * (diffuse * (0.75 + 0.25 * rim) * (1.0 + blotch))[..., None]
    col[..., 2] += 0.04 * (1.0 - rim)  # light through skin at the edges is redder
    premul = col * mask[..., None]
    if blur_len_px >= 1.0:
        k = line_kernel(blur_len_px, rng.uniform(0, math.pi))
        premul = cv2.filter2D(premul, -1, k)
        mask = cv2.filter2D(mask, -1, k)
    alpha = cv2.GaussianBlur(mask, (0, 0), 0.5)
    colour = cv2.GaussianBlur(premul, (0, 0), 0.5)
    return HandLayer((bx0, by0, bx1, by1), alpha, colour.astype(np.float32), shadow_roi,
                     shadow)
