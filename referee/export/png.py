"""The table diagram as a PNG picture, drawn with Pillow (the same shapes as the SVG)."""

from __future__ import annotations

import io
from collections.abc import Iterable
from typing import TYPE_CHECKING

from referee.export.diagram import FELT, Diagram, diagram
from tabletop.events import Event

if TYPE_CHECKING:
    from PIL.ImageFont import FreeTypeFont, ImageFont


def _font(size_px: int) -> FreeTypeFont | ImageFont:
    """DejaVu Sans when the system has it (Debian does), else Pillow's own font."""
    from PIL import ImageFont

    try:
        return ImageFont.truetype("DejaVuSans.ttf", size_px)
    except OSError:
        return ImageFont.load_default(size=size_px)


def render_png(d: Diagram, width_px: int = 1200) -> bytes:
    """A diagram as PNG bytes, ``width_px`` wide."""
    from PIL import Image, ImageDraw

    x0, y0, w, h = d.box
    k = width_px / w
    img = Image.new("RGB", (width_px, max(1, round(h * k))), FELT)
    draw = ImageDraw.Draw(img)
    title = _font(18)
    fonts: dict[float, FreeTypeFont | ImageFont] = {}

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
            font = fonts.setdefault(s.size, _font(max(8, round(s.size * k * 0.75))))
            draw.text(px(s.points[0]), s.text, fill=fill, anchor="mm", font=font)
    draw.text((8, 8), d.title, fill="#ffffff", font=title)
    buf = io.BytesIO()
    img.save(buf, format="PNG")
    return buf.getvalue()


def png_bytes(events: Iterable[Event]) -> bytes:
    """The diagram of a record's last table as PNG."""
    return render_png(diagram(events))
