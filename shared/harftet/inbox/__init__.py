"""The inbox: each player's tables, "Sıra sende" first, written from the tables stream."""

from .service import Inbox, entry, inbox_item, rank

__all__ = ["Inbox", "entry", "inbox_item", "rank"]
