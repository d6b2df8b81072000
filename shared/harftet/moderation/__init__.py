"""Reports on players and what operators do about them: read reports, ban, close a table."""

from .service import REPORT_KINDS, Moderation

__all__ = ["REPORT_KINDS", "Moderation"]
