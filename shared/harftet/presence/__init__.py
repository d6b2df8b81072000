"""Friends' presence: online, at a table of which game, or away — pushed as it changes."""

from .service import Presence

__all__ = ["Presence"]
