"""The web client's app icons, drawn with the stdlib: `python -m harftet.localstack.icons`.

A cream okey tile with a red dot on the green felt, as PNGs (192 and 512 px, also "maskable":
the tile sits inside the middle 80 % every launcher keeps) beside `clients/web/icons/icon.svg`.
No image library is needed: the pixels are computed and written with zlib (the PNG format's
own compression), so the icons are rebuilt anywhere the repository is.
"""

from __future__ import annotations

import struct
import zlib
from pathlib import Path

OUT = Path(__file__).resolve().parents[3] / "clients" / "web" / "icons"
FELT = (23, 74, 55)
TILE = (251, 246, 233)
EDGE = (201, 189, 159)
RED = (179, 35, 42)
SIZES = (192, 512)


def _inside_rounded(x: float, y: float, box: tuple[float, float, float, float], r: float) -> bool:
    left, top, right, bottom = box
    if not (left <= x <= right and top <= y <= bottom):
        return False
    cx = min(max(x, left + r), right - r)
    cy = min(max(y, top + r), bottom - r)
    return (x - cx) ** 2 + (y - cy) ** 2 <= r * r


def pixels(size: int) -> list[bytes]:
    """Rows of RGB bytes: felt, a tile in the safe zone, a red dot on the tile."""
    s = float(size)
    tile = (0.30 * s, 0.20 * s, 0.70 * s, 0.80 * s)
    edge = (tile[0] - 0.02 * s, tile[1] - 0.02 * s, tile[2] + 0.02 * s, tile[3] + 0.04 * s)
    dot = (0.5 * s, 0.62 * s, 0.07 * s)
    bar = (0.40 * s, 0.30 * s, 0.60 * s, 0.46 * s)
    rows = []
    for j in range(size):
        row = bytearray()
        for i in range(size):
            x, y = i + 0.5, j + 0.5
            color = FELT
            if _inside_rounded(x, y, edge, 0.06 * s):
                color = EDGE
            if _inside_rounded(x, y, tile, 0.05 * s):
                color = TILE
                if (x - dot[0]) ** 2 + (y - dot[1]) ** 2 <= dot[2] ** 2:
                    color = RED
                if _inside_rounded(x, y, bar, 0.02 * s):
                    color = RED
            row += bytes(color)
        rows.append(bytes(row))
    return rows


def png(size: int) -> bytes:
    """A PNG file (8-bit RGB) of the icon at `size` px."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        crc = struct.pack(">I", zlib.crc32(kind + data))
        return struct.pack(">I", len(data)) + kind + data + crc

    raw = b"".join(b"\x00" + row for row in pixels(size))
    header = struct.pack(">IIBBBBB", size, size, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(raw, 9))
        + chunk(b"IEND", b"")
    )


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    for size in SIZES:
        (OUT / f"icon-{size}.png").write_bytes(png(size))


if __name__ == "__main__":
    main()
