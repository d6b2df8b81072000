"""Timers: a table's next deadline as a delayed message, fired when it falls due; the far
deadlines of correspondence tables armed from the deadline index."""

from harftet.queues import Timer
from harftet.store.table_items import deadline_set

from .far import arm
from .firing import Fired, TimerFiring

__all__ = ["Fired", "Timer", "TimerFiring", "arm", "deadline_set"]
