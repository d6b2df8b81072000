"""wordfreq's Turkish frequencies for `python -m harftet.words.build`: its msgpack list read
without the msgpack package, and the written words ranked by frequency."""

from __future__ import annotations

import gzip
from collections.abc import Iterable

from harftet.engine.words import is_game_word, turkish_upper


def unpack_msgpack(data: bytes) -> object:
    """Decode the msgpack subset wordfreq writes (arrays, maps, strings, ints, nil, bools).

    A few lines instead of a build dependency on the msgpack package.
    """
    pos = 0

    def take(n: int) -> bytes:
        nonlocal pos
        if pos + n > len(data):
            raise ValueError("truncated msgpack data")
        chunk = data[pos : pos + n]
        pos += n
        return chunk

    def uint(n: int) -> int:
        return int.from_bytes(take(n), "big")

    def value() -> object:
        b = take(1)[0]
        if b <= 0x7F:
            return b
        if b >= 0xE0:
            return b - 0x100
        if 0x80 <= b <= 0x8F:
            return mapping(b & 0x0F)
        if 0x90 <= b <= 0x9F:
            return [value() for _ in range(b & 0x0F)]
        if 0xA0 <= b <= 0xBF:
            return take(b & 0x1F).decode("utf-8")
        simple: dict[int, object] = {0xC0: None, 0xC2: False, 0xC3: True}
        if b in simple:
            return simple[b]
        if b in (0xCC, 0xCD, 0xCE, 0xCF):
            return uint(1 << (b - 0xCC))
        if b in (0xD0, 0xD1, 0xD2, 0xD3):
            n = 1 << (b - 0xD0)
            return int.from_bytes(take(n), "big", signed=True)
        if b in (0xD9, 0xDA, 0xDB):
            return take(uint(1 << (b - 0xD9))).decode("utf-8")
        if b in (0xDC, 0xDD):
            return [value() for _ in range(uint(2 if b == 0xDC else 4))]
        if b in (0xDE, 0xDF):
            return mapping(uint(2 if b == 0xDE else 4))
        raise ValueError(f"unsupported msgpack type byte 0x{b:02x}")

    def mapping(n: int) -> dict[object, object]:
        out: dict[object, object] = {}
        for _ in range(n):
            key = value()
            out[key] = value()
        return out

    result = value()
    if pos != len(data):
        raise ValueError("trailing bytes after msgpack data")
    return result


def parse_wordfreq(packed: bytes) -> dict[str, float]:
    """Return {game form: frequency} from a wordfreq `cB` list (gzipped msgpack).

    The list is a header then buckets: bucket i holds the words of frequency 10^(-i/100)
    (centibels). Entries that fold to one game form add up; others (digits, apostrophes,
    Q/W/X, one letter) are skipped.
    """
    doc = unpack_msgpack(gzip.decompress(packed))
    if not isinstance(doc, list) or not doc or not isinstance(doc[0], dict):
        raise ValueError("not a wordfreq list")
    header = doc[0]
    if header.get("format") != "cB" or header.get("version") != 1:
        raise ValueError(f"unknown wordfreq list format {header!r}")
    freqs: dict[str, float] = {}
    for index, bucket in enumerate(doc[1:]):
        if not isinstance(bucket, list):
            raise ValueError("not a wordfreq list")
        freq = 10.0 ** (-index / 100)
        for entry in bucket:
            form = turkish_upper(str(entry))
            if is_game_word(form, 2):
                freqs[form] = freqs.get(form, 0.0) + freq
    return freqs


def rank_words(freqs: dict[str, float], words: Iterable[str]) -> list[str]:
    """Return the `words` that have a frequency, most frequent first (ties alphabetical)."""
    return sorted((w for w in set(words) if w in freqs), key=lambda w: (-freqs[w], w))
