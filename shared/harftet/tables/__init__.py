"""The tables: their use cases (`Tables`), the one write path (`TableWriter`), hints and dry
runs, the log and replays, deadlines, WebSocket connections and a deleted player's leaving."""

from .writer import Change, TableWriter, WriteStatus, Written

__all__ = ["Change", "TableWriter", "WriteStatus", "Written"]
