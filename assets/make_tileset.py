"""Build ``assets/tileset_10x16.png``: a CP437 16x16 tilesheet of 10x16 px tiles from DejaVu Sans Mono.

A developer tool, not part of the game: it needs Pillow (``pip install pillow``), which the game does not.
Run from the repository root::

    python assets/make_tileset.py [--font PATH] [--out assets/tileset_10x16.png]

Letters come from the font, anti-aliased into the alpha channel (white RGB). Box-drawing and block characters
are drawn procedurally so that they join across tiles; characters the mono font lacks fall back to DejaVu Sans.
"""

from __future__ import annotations

import argparse
import unicodedata
from pathlib import Path

import numpy as np
import tcod.tileset
from PIL import Image, ImageDraw, ImageFont

W, H = 10, 16
FONT_SIZE = 14
MONO = "/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf"
FALLBACK = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
CX, CY = 4, 7  # centre pixel of box-drawing lines


def _glyph(font: ImageFont.FreeTypeFont, ch: str) -> np.ndarray:
    """The coverage (0..255) of ``ch`` centred in one tile, baseline fixed for every glyph."""
    img = Image.new("L", (W * 3, H * 3), 0)
    draw = ImageDraw.Draw(img)
    ascent, descent = font.getmetrics()
    advance = font.getlength(ch)
    # baseline so that ascent+descent is centred vertically in the tile
    top = (H - (ascent + descent)) // 2 + 1
    left = (W - advance) / 2
    draw.text((W + left, H + top), ch, fill=255, font=font)
    return np.asarray(img, dtype=np.uint8)[H:2 * H, W:2 * W].copy()


def _box(name: str) -> np.ndarray | None:
    """Procedural box drawing from the Unicode name ('BOX DRAWINGS LIGHT DOWN AND RIGHT', ...)."""
    if not name.startswith("BOX DRAWINGS "):
        return None
    arms: dict[str, str] = {}
    weight = "single"
    for part in name[len("BOX DRAWINGS "):].split(" AND "):
        words = part.split()
        if "LIGHT" in words or "SINGLE" in words:
            weight = "single"
        if "DOUBLE" in words:
            weight = "double"
        if "HEAVY" in words or "ARC" in words or "DASH" in words or "DIAGONAL" in words:
            return None
        for w in words:
            dirs = {"UP": "U", "DOWN": "D", "LEFT": "L", "RIGHT": "R", "HORIZONTAL": "LR", "VERTICAL": "UD"}.get(w, "")
            for d in dirs:
                arms[d] = weight
    a = np.zeros((H, W), dtype=np.uint8)

    def hline(y: int, x0: int, x1: int) -> None:
        a[y, min(x0, x1):max(x0, x1) + 1] = 255

    def vline(x: int, y0: int, y1: int) -> None:
        a[min(y0, y1):max(y0, y1) + 1, x] = 255

    def reach(near: str, far: str, inner: int, outer: int, centre: int) -> int:
        # where a line of a double arm ends: at the inner line of a perpendicular arm on its own side, else at the
        # outer line of the arm on the other side, else straight through
        if near in arms:
            return inner if arms[near] == "double" else centre
        if far in arms:
            return outer if arms[far] == "double" else centre
        return outer

    for d, wgt in arms.items():
        if d in "LR":
            edge = W - 1 if d == "R" else 0
            sgn = 1 if d == "R" else -1
            if wgt == "single":
                start = CX
                if arms.get("U") == "double" or arms.get("D") == "double":
                    start = CX - sgn  # reach the far line of a double vertical
                hline(CY, start, edge)
            else:
                hline(CY - 1, reach("U", "D", CX + sgn, CX - sgn, CX), edge)
                hline(CY + 1, reach("D", "U", CX + sgn, CX - sgn, CX), edge)
        else:
            edge = H - 1 if d == "D" else 0
            sgn = 1 if d == "D" else -1
            if wgt == "single":
                start = CY
                if arms.get("L") == "double" or arms.get("R") == "double":
                    start = CY - sgn
                vline(CX, start, edge)
            else:
                vline(CX - 1, reach("L", "R", CY + sgn, CY - sgn, CY), edge)
                vline(CX + 1, reach("R", "L", CY + sgn, CY - sgn, CY), edge)
    return a


def _block(cp: int) -> np.ndarray | None:
    a = np.zeros((H, W), dtype=np.uint8)
    yy, xx = np.mgrid[0:H, 0:W]
    if cp == 0x2588:  # full block
        a[:] = 255
    elif cp == 0x2584:  # lower half
        a[H // 2:] = 255
    elif cp == 0x2580:  # upper half
        a[:H // 2] = 255
    elif cp == 0x258C:  # left half
        a[:, :W // 2] = 255
    elif cp == 0x2590:  # right half
        a[:, W // 2:] = 255
    elif cp == 0x2591:  # light shade
        a[((xx % 2) == 0) & ((yy % 2) == 0)] = 255
    elif cp == 0x2592:  # medium shade
        a[((xx + yy) % 2) == 0] = 255
    elif cp == 0x2593:  # dark shade
        a[:] = 255
        a[((xx % 2) == 1) & ((yy % 2) == 1)] = 0
    else:
        return None
    return a


def build(font_path: str, fallback_path: str) -> np.ndarray:
    mono = ImageFont.truetype(font_path, FONT_SIZE)
    fallback = ImageFont.truetype(fallback_path, FONT_SIZE - 1)
    missing = _glyph(mono, "\ue000")  # a private-use code point: the font's 'missing' box
    sheet = np.zeros((16 * H, 16 * W), dtype=np.uint8)
    for i, cp in enumerate(tcod.tileset.CHARMAP_CP437):
        ch = chr(cp)
        if i == 0 or ch == " " or cp == 0xA0:
            continue
        tile = _block(cp)
        if tile is None:
            tile = _box(unicodedata.name(ch, ""))
        if tile is None:
            tile = _glyph(mono, ch)
            if np.array_equal(tile, missing):
                tile = _glyph(fallback, ch)
        r, c = divmod(i, 16)
        sheet[r * H:(r + 1) * H, c * W:(c + 1) * W] = tile
    return sheet


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--font", default=MONO)
    p.add_argument("--fallback", default=FALLBACK)
    p.add_argument("--out", default=str(Path(__file__).resolve().parent / "tileset_10x16.png"))
    args = p.parse_args()
    alpha = build(args.font, args.fallback)
    rgba = np.zeros((*alpha.shape, 4), dtype=np.uint8)
    rgba[..., :3] = 255
    rgba[..., 3] = alpha
    Image.fromarray(rgba).save(args.out, optimize=True)
    print(f"wrote {args.out} ({alpha.shape[1]}x{alpha.shape[0]} px, 16x16 tiles of {W}x{H})")


if __name__ == "__main__":
    main()
