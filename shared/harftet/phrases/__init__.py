"""Phrases at the table (RULES §7): a fixed set, sent by id, never free text."""

from .service import GAP_SECONDS, PER_HAND, PHRASES, Phrases, catalogue

__all__ = ["GAP_SECONDS", "PER_HAND", "PHRASES", "Phrases", "catalogue"]
