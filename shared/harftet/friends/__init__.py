"""Friends, blocks and invitations (RULES §7)."""

from .service import Friends

__all__ = ["Friends"]
