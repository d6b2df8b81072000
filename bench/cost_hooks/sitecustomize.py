"""Loaded at start-up by every Python process of the local stack that bench/bench_cost.py
launches (it puts this directory first on PYTHONPATH): counts every AWS call on every botocore
client (botocore's event hooks), and every Lambda invocation of the emulator's workers, as JSON
lines in $HARFTET_COUNT_CALLS/<pid>.jsonl. Does nothing when that variable is unset."""

import os

if os.environ.get("HARFTET_COUNT_CALLS"):
    try:
        import bench.cost_calls as _calls
    except ImportError:  # the repo root is not on the path: put it there
        import sys
        from pathlib import Path

        sys.path.append(str(Path(__file__).resolve().parents[2]))
        import bench.cost_calls as _calls
    _calls.install(os.environ["HARFTET_COUNT_CALLS"])
