"""`make run` keeps the signing keys' ring in its data folder when it rotates them (docs/DEPLOY.md
"Signing keys"): tokens signed by a kept key verify after a restart; FRESH=1 forgets it."""

from __future__ import annotations

from pathlib import Path

from harftet.identity import Tokens, parse_keys, rotated
from harftet.localstack import persist

SECRET = "the-one-secret-of-the-tests-0123456789"


def test_the_ring_kept_in_the_data_folder_verifies_tokens_after_a_restart(tmp_path: Path) -> None:
    assert persist.kept_keys(tmp_path) is None  # none before the first rotation
    ring = rotated(rotated(None, 1), 2)
    token = Tokens(SECRET, keys=lambda fresh: parse_keys(ring)).issue("p1", "Ayşe")
    persist.keep_keys(tmp_path, ring)
    assert (tmp_path / persist.KEYS).stat().st_mode & 0o777 == 0o600  # its owner's only
    kept = persist.kept_keys(tmp_path)
    after = Tokens(SECRET, keys=lambda fresh: parse_keys(kept))  # the restarted stack's
    assert after.verify(token).player_id == "p1"
    persist.prepare(tmp_path, fresh=True)
    assert persist.kept_keys(tmp_path) is None
