"""After the commit, in one place: every stored table version is published from the tables
table's stream (`Publisher`)."""

from .publisher import Change, Published, Publisher, changes_from_stream

__all__ = ["Change", "Published", "Publisher", "changes_from_stream"]
