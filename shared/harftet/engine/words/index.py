"""The search index of a word list: an alphagram trie, built at set-up beside the dictionary.

`python -m harftet.engine.words.index` writes `data/words.index.bin` from `data/words.txt.gz` (both
generated, never committed); `make dictionary` runs it right after the word list is built.

Every word is keyed by its *alphagram*: its letters sorted in `ORDER` (rarest first, so the
first levels of the trie branch on letters a rack seldom holds). A path from the root spells
an alphagram one letter at a time; a node that ends one names the group of words that are
its anagrams. The computer player walks the trie with a rack's letter counts (and the
letters a word must contain), which finds every word a rack can spell without scanning the
list. The trie is stored as flat integer arrays, so loading it is a few array copies.

Stdlib only; the loader costs a few milliseconds of cold start (bench/bench_search_harftet.py).
"""

from __future__ import annotations

import os
import sys
import zlib
from array import array
from collections.abc import Iterable, Sequence
from typing import NamedTuple

from harftet.engine.words import DEFAULT_WORDS_PATH, WordList, default_words

__all__ = ["INDEX_PATH", "ORDER", "RANK", "Index", "alphagram", "build", "for_words", "load"]

ORDER = "JĞÖFVGHÇPÜCBUZYDŞOISNTMİREKLA"
"""The 29 letters, rarest in the dictionary first: the order of an alphagram's letters."""
RANK = {ch: i for i, ch in enumerate(ORDER)}

INDEX_PATH = os.path.join(os.path.dirname(DEFAULT_WORDS_PATH), "words.index.bin")
"""Where `python -m harftet.engine.words.index` writes the default list's index (generated)."""

_VERSION = 3


class Index(NamedTuple):
    """An alphagram trie as parallel arrays; node 0 is the root.

    The edges of node n are ``starts[n]`` .. ``starts[n + 1] - 1``, in ascending letter rank:
    ``letters[e]`` (a rank in `ORDER`) leads to node ``children[e]``. ``below[n]`` has bit r set
    when some alphagram through n has letter rank r after n (prunes a walk that must still
    find letters). ``terminal[n]`` is the
    group of words whose alphagram ends at n, or -1; group g is ``text[offsets[g]:offsets[g+1]]``
    (its words space-separated, then a newline). Arrays, not lists: loading stays a copy.
    A named tuple (no dataclasses, no json here): importing this module stays nearly free.
    """

    starts: Sequence[int]
    letters: Sequence[int]
    children: Sequence[int]
    below: Sequence[int]
    terminal: Sequence[int]
    text: str
    offsets: Sequence[int]

    @property
    def nodes(self) -> int:
        """Return the number of trie nodes."""
        return len(self.terminal)

    def words_at(self, node: int) -> list[str]:
        """Return the words whose alphagram ends at `node` (none if it ends no word)."""
        g = self.terminal[node]
        return self.text[self.offsets[g] : self.offsets[g + 1] - 1].split(" ") if g >= 0 else []

    @property
    def groups(self) -> int:
        """Return the number of alphagrams."""
        return len(self.offsets) - 1

    def anagrams(self, letters: str) -> list[str]:
        """Return the words spelled by exactly the letters of `letters` (any order)."""
        node = 0
        for rank in alphagram(letters):
            for e in range(self.starts[node], self.starts[node + 1]):
                if self.letters[e] == rank:
                    node = self.children[e]
                    break
            else:
                return []
        return self.words_at(node)


def alphagram(word: str) -> list[int]:
    """Return the letter ranks of `word`, sorted: its key in the trie."""
    return sorted(RANK[ch] for ch in word)


def build(words: Iterable[str]) -> Index:
    """Build the trie of every word of 2 or more letters of the 29-letter alphabet."""
    keys: dict[tuple[int, ...], list[str]] = {}
    for w in words:
        if len(w) >= 2 and all(ch in RANK for ch in w):
            keys.setdefault(tuple(alphagram(w)), []).append(w)
    kids: list[dict[int, int]] = [{}]
    terminal = [-1]
    groups: list[str] = []
    for key in sorted(keys):
        node = 0
        for rank in key:
            nxt = kids[node].get(rank)
            if nxt is None:
                nxt = kids[node][rank] = len(kids)
                kids.append({})
                terminal.append(-1)
            node = nxt
        terminal[node] = len(groups)
        groups.append(" ".join(sorted(keys[key])))
    starts = [0]
    letters: list[int] = []
    children: list[int] = []
    for edges in kids:
        for rank in sorted(edges):
            letters.append(rank)
            children.append(edges[rank])
        starts.append(len(letters))
    below = [0] * len(kids)
    for node in range(len(kids) - 1, -1, -1):  # children are numbered after their parent
        bits = 0
        for rank, child in kids[node].items():
            bits |= (1 << rank) | below[child]
        below[node] = bits
    offsets = [0]
    for g in groups:
        offsets.append(offsets[-1] + len(g) + 1)
    text = "".join(g + "\n" for g in groups)
    return Index(starts, bytes(letters), children, below, terminal, text, offsets)


def _crc(path: str) -> int:
    with open(path, "rb") as f:
        return zlib.crc32(f.read())


def dumps(index: Index, source_crc: int) -> bytes:
    """Serialise `index` (uncompressed: reading 3 MB beats inflating 0.8 MB), remembering the
    CRC-32 of the list it came from."""
    header = {
        "version": _VERSION,
        "source_crc": source_crc,
        "nodes": index.nodes,
        "edges": len(index.letters),
        "groups": index.groups,
        "little": int(sys.byteorder == "little"),
    }
    parts = [
        " ".join(f"{k}={v}" for k, v in header.items()).encode() + b"\n",
        array("i", index.starts).tobytes(),
        array("B", index.letters).tobytes(),
        array("i", index.children).tobytes(),
        array("i", index.below).tobytes(),
        array("i", index.terminal).tobytes(),
        array("i", index.offsets).tobytes(),
        index.text.encode("utf-8"),
    ]
    return b"".join(parts)


def loads(data: bytes, source_crc: int | None = None) -> Index | None:
    """Read what `dumps` wrote; None when it is of another version or another word list."""
    raw = data
    end = raw.index(b"\n")
    header = {k: int(v) for k, v in (kv.split(b"=") for kv in raw[:end].split())}
    little = int(sys.byteorder == "little")
    if header.get(b"version") != _VERSION or header.get(b"little") != little:
        return None
    if source_crc is not None and header.get(b"source_crc") != source_crc:
        return None
    n, m = header[b"nodes"], header[b"edges"]
    g = header[b"groups"]
    view = memoryview(raw)[end + 1 :]
    out: list[Sequence[int]] = []
    for code, count in (("i", n + 1), ("B", m), ("i", m), ("i", n), ("i", n), ("i", g + 1)):
        arr = array(code)
        size = arr.itemsize * count
        arr.frombytes(view[:size])
        view = view[size:]
        out.append(bytes(arr) if code == "B" else arr)
    text = str(view, "utf-8")
    if len(text) != out[5][-1]:
        return None
    return Index(out[0], out[1], out[2], out[3], out[4], text, out[5])


def load(path: str = INDEX_PATH, words_path: str = DEFAULT_WORDS_PATH) -> Index | None:
    """Load the generated index of the list at `words_path`; None if missing or stale."""
    try:
        with open(path, "rb") as f:
            data = f.read()
        crc = _crc(words_path)
    except FileNotFoundError:
        return None
    return loads(data, crc)


def _default_index(words: WordList) -> Index:
    index = load()
    if index is None:  # not generated (or stale): correct, but slow — run `make dictionary`
        import warnings

        warnings.warn(
            f"{INDEX_PATH} is missing or stale: building the search index in process "
            "(run `python -m harftet.engine.words.index`)",
            stacklevel=3,
        )
        index = build(words)
    return index


def for_words(words: WordList) -> Index:
    """Return the index of `words`: the generated file for the default list, else built once."""
    default = words is default_words()
    return words.derived("harftet.engine.words.index", _default_index if default else build)


def main() -> None:
    """Write the default list's index beside it."""
    import time

    start = time.perf_counter()
    words = WordList.from_gzip(DEFAULT_WORDS_PATH)
    index = build(words)
    data = dumps(index, _crc(DEFAULT_WORDS_PATH))
    tmp = INDEX_PATH + ".tmp"
    with open(tmp, "wb") as f:
        f.write(data)
    os.replace(tmp, INDEX_PATH)
    print(
        f"wrote {INDEX_PATH}: {len(words)} words, {index.nodes} nodes, {index.groups} "
        f"alphagrams, {len(data) // 1024} KiB in {time.perf_counter() - start:.1f} s"
    )


if __name__ == "__main__":
    main()
