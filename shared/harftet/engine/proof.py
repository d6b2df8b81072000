"""Deal proofs (RULES §5a): each hand's shuffle input, and the SHA-256 commitment to it that
every view shows from the deal on. docs/DEALS.md documents both for anyone to recompute.

The shuffle input of hand h of a game with seed s is the text ``"s:h"`` (it seeds Python's
``random.Random``). A seed has 63 bits, few enough to search for by brute force from a
digest of it alone, so the commitment also holds the table's secret salt (128 random bits,
hex), revealed with the seed once the game is over:

    committed = "harftet-deal-v1|" + salt + "|" + shuffle input
    dealProof = SHA-256(committed as UTF-8), lower-case hex
"""

from __future__ import annotations

import hashlib

PREFIX = "harftet-deal-v1"
SALT_BYTES = 16  # 128 bits


def shuffle_input(seed: int, hand_number: int) -> str:
    """What seeds hand ``hand_number``'s shuffle (docs/DEALS.md)."""
    return f"{seed}:{hand_number}"


def committed(salt: str, seed: int, hand_number: int) -> str:
    """The text a hand's deal proof is the digest of."""
    return f"{PREFIX}|{salt}|{shuffle_input(seed, hand_number)}"


def digest(text: str) -> str:
    """SHA-256 of ``text`` (UTF-8), lower-case hex."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def deal_proof(salt: str, seed: int, hand_number: int) -> str:
    """The commitment to hand ``hand_number``'s shuffle that views show."""
    return digest(committed(salt, seed, hand_number))
