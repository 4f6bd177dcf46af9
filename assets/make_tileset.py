"""Build the tilesets in ``assets/``: CP437 16x16 tilesheets from DejaVu Sans Mono, one per tile size.

A developer tool, not part of the game: it needs Pillow (``pip install pillow``), which the game does not.
Run from the repository root::

    python assets/make_tileset.py [--font PATH] [--size small|medium|large|all] [--out FILE]

Sizes (``SIZES``): small 10x16 px tiles (the font at 14 px), medium 14x22 (19 px) and large 20x32 (28 px).
Letters come from the font, anti-aliased into the alpha channel (white RGB). Box-drawing and block characters
are drawn procedurally so that they join across tiles; characters the mono font lacks fall back to DejaVu Sans.
Box-drawing lines are ``LINE`` px thick: they are drawn on a grid of LINE x LINE px units and scaled up, so a
large tile's lines are the small tile's, twice as thick.
"""

from __future__ import annotations

import argparse
import unicodedata
from pathlib import Path

import numpy as np
import tcod.tileset
from PIL import Image, ImageDraw, ImageFont

# name: (tile width, tile height, font size in px, box-drawing line thickness in px)
SIZES: dict[str, tuple[int, int, int, int]] = {
    "small": (10, 16, 14, 1),
    "medium": (14, 22, 19, 2),
    "large": (20, 32, 28, 2),
}
W, H = 10, 16
FONT_SIZE = 14
LINE = 1
MONO = "/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf"
FALLBACK = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"


def _configure(name: str) -> None:
    """Draw tiles of size ``name`` from now on."""
    global W, H, FONT_SIZE, LINE
    W, H, FONT_SIZE, LINE = SIZES[name]


def file_name(name: str) -> str:
    w, h, _, _ = SIZES[name]
    return f"tileset_{w}x{h}.png"


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
    return np.asarray(img, dtype=np.uint8)[H : 2 * H, W : 2 * W].copy()


def _box_arms(name: str) -> dict[str, str] | None:
    """The arms of a light or double box-drawing character by its Unicode name: direction (U, D, L, R) -> weight
    ("single" or "double"); None for anything else (heavy, arcs, dashes, diagonals, not a box drawing)."""
    if not name.startswith("BOX DRAWINGS "):
        return None
    arms: dict[str, str] = {}
    weight = "single"
    for part in name[len("BOX DRAWINGS ") :].split(" AND "):
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
    return arms


def _box(name: str) -> np.ndarray | None:
    """Procedural box drawing from the Unicode name ('BOX DRAWINGS LIGHT DOWN AND RIGHT', ...)."""
    arms = _box_arms(name)
    if arms is None:
        return None
    gw, gh = W // LINE, H // LINE  # the grid of line-thick units the lines are drawn on
    cx, cy = (gw - 1) // 2, (gh - 1) // 2  # the centre unit
    a = np.zeros((gh, gw), dtype=np.uint8)

    def hline(y: int, x0: int, x1: int) -> None:
        a[y, min(x0, x1) : max(x0, x1) + 1] = 255

    def vline(x: int, y0: int, y1: int) -> None:
        a[min(y0, y1) : max(y0, y1) + 1, x] = 255

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
            edge = gw - 1 if d == "R" else 0
            sgn = 1 if d == "R" else -1
            if wgt == "single":
                start = cx
                if arms.get("U") == "double" or arms.get("D") == "double":
                    start = cx - sgn  # reach the far line of a double vertical
                hline(cy, start, edge)
            else:
                hline(cy - 1, reach("U", "D", cx + sgn, cx - sgn, cx), edge)
                hline(cy + 1, reach("D", "U", cx + sgn, cx - sgn, cx), edge)
        else:
            edge = gh - 1 if d == "D" else 0
            sgn = 1 if d == "D" else -1
            if wgt == "single":
                start = cy
                if arms.get("L") == "double" or arms.get("R") == "double":
                    start = cy - sgn
                vline(cx, start, edge)
            else:
                vline(cx - 1, reach("L", "R", cy + sgn, cy - sgn, cy), edge)
                vline(cx + 1, reach("R", "L", cy + sgn, cy - sgn, cy), edge)
    out = np.kron(a, np.ones((LINE, LINE), dtype=np.uint8))
    full = np.zeros((H, W), dtype=np.uint8)
    # units that do not divide the tile: the last unit's line is stretched to the tile's edge
    full[: out.shape[0], : out.shape[1]] = out
    full[out.shape[0] :, : out.shape[1]] = out[-1:, :]
    full[:, out.shape[1] :] = full[:, out.shape[1] - 1 : out.shape[1]]
    return full


def _block(cp: int) -> np.ndarray | None:
    a = np.zeros((H, W), dtype=np.uint8)
    yy, xx = np.mgrid[0:H, 0:W]
    if cp == 0x2588:  # full block
        a[:] = 255
    elif cp == 0x2584:  # lower half
        a[H // 2 :] = 255
    elif cp == 0x2580:  # upper half
        a[: H // 2] = 255
    elif cp == 0x258C:  # left half
        a[:, : W // 2] = 255
    elif cp == 0x2590:  # right half
        a[:, W // 2 :] = 255
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
        sheet[r * H : (r + 1) * H, c * W : (c + 1) * W] = tile
    return sheet


def write(name: str, font: str, fallback: str, out: str) -> None:
    _configure(name)
    alpha = build(font, fallback)
    rgba = np.zeros((*alpha.shape, 4), dtype=np.uint8)
    rgba[..., :3] = 255
    rgba[..., 3] = alpha
    Image.fromarray(rgba).save(out, optimize=True)
    print(f"wrote {out} ({alpha.shape[1]}x{alpha.shape[0]} px, 16x16 tiles of {W}x{H})")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--font", default=MONO)
    p.add_argument("--fallback", default=FALLBACK)
    p.add_argument("--size", choices=[*SIZES, "all"], default="all")
    p.add_argument("--out", default=None, help="the file to write (one --size only; default assets/tileset_WxH.png)")
    args = p.parse_args()
    names = list(SIZES) if args.size == "all" else [args.size]
    if args.out is not None and len(names) != 1:
        p.error("--out needs one --size")
    for name in names:
        out = args.out or str(Path(__file__).resolve().parent / file_name(name))
        write(name, args.font, args.fallback, out)


if __name__ == "__main__":
    main()
