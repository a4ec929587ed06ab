"""The lamp's mirror image on a glossy table (varnish, laminate) and on the flat tops lying on
it: a soft bright spot where the view ray reflects toward the light."""

from __future__ import annotations

from collections import OrderedDict

import numpy as np

from tabletop.render.camera import CameraPose
from tabletop.render.table import table_view

_MAPS: OrderedDict[tuple, np.ndarray] = OrderedDict()


def glare_map(pose: CameraPose, light: np.ndarray, shininess: float = 80.0) -> np.ndarray:
    """Blinn-Phong highlight of the table plane, (H, W) float32 in [0, 1] (cached by pose).

    Args:
        pose: The camera.
        light: Unit vector toward the light.
        shininess: Sharpness of the highlight (bigger: a smaller spot).
    """
    key = (pose.key(), tuple(np.round(light, 9)), shininess)
    if key in _MAPS:
        return _MAPS[key]
    view = table_view(pose)
    c = pose.centre_mm
    vx = c[0] - np.nan_to_num(view.x_mm, nan=c[0])
    vy = c[1] - np.nan_to_num(view.y_mm, nan=c[1])
    vz = np.full_like(vx, float(c[2]))
    norm = np.sqrt(vx * vx + vy * vy + vz * vz)
    hx, hy, hz = vx / norm + light[0], vy / norm + light[1], vz / norm + light[2]
    ndh = hz / np.sqrt(hx * hx + hy * hy + hz * hz)
    out = np.power(np.clip(ndh, 0.0, 1.0), shininess).astype(np.float32)
    out[~np.isfinite(view.x_mm)] = 0.0
    out.setflags(write=False)
    _MAPS[key] = out
    while len(_MAPS) > 4:
        _MAPS.popitem(last=False)
    return out
