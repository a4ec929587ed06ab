"""The table diagram as a PNG picture, drawn with Pillow (the same shapes as the SVG)."""

from __future__ import annotations

import io
from collections.abc import Iterable

from tabletop.events import Event
from tabletop.export.diagram import FELT, Diagram, diagram


def render_png(d: Diagram, width_px: int = 1200) -> bytes:
    """A diagram as PNG bytes, ``width_px`` wide."""
    from PIL import Image, ImageDraw

    x0, y0, w, h = d.box
    k = width_px / w
    img = Image.new("RGB", (width_px, max(1, round(h * k))), FELT)
    draw = ImageDraw.Draw(img)

    def px(p: tuple[float, float]) -> tuple[float, float]:
        return ((p[0] - x0) * k, (p[1] - y0) * k)

    for s in d.shapes:
        width = max(1, round(s.width * k / 2))
        if s.kind == "circle":
            cx, cy = px(s.points[0])
            r = s.r * k
            draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=s.fill, outline=s.stroke,
                         width=width)
        elif s.kind == "polygon":
            draw.polygon([px(p) for p in s.points], fill=s.fill, outline=s.stroke, width=width)
        elif s.kind == "line":
            draw.line([px(p) for p in s.points], fill=s.stroke, width=width)
        elif s.kind == "text":
            fill = s.fill[:7] if s.fill else "#ffffff"
            draw.text(px(s.points[0]), s.text, fill=fill, anchor="mm")
    draw.text((8, 8), d.title, fill="#ffffff")
    buf = io.BytesIO()
    img.save(buf, format="PNG")
    return buf.getvalue()


def png_bytes(events: Iterable[Event]) -> bytes:
    """The diagram of a record's last table as PNG."""
    return render_png(diagram(events))
