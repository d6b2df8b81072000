"""API Gateway's stage throttling, for the local stack: a token bucket (steady rate + burst)."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable


class TokenBucket:
    """``rate`` requests a second on average, up to ``burst`` at once."""

    def __init__(
        self, rate: float, burst: int, clock: Callable[[], float] = time.monotonic
    ) -> None:
        if rate <= 0 or burst < 1:
            raise ValueError("the throttle needs a rate > 0 and a burst >= 1")
        self.rate = rate
        self.burst = burst
        self._clock = clock
        self._tokens = float(burst)
        self._at = clock()
        self._lock = threading.Lock()

    def take(self) -> bool:
        """True if a request may pass now; False if it is throttled (API Gateway: 429)."""
        with self._lock:
            now = self._clock()
            self._tokens = min(self.burst, self._tokens + (now - self._at) * self.rate)
            self._at = now
            if self._tokens < 1:
                return False
            self._tokens -= 1
            return True


def parse_throttle(text: str) -> tuple[float, int]:
    """``"RATE"`` or ``"RATE,BURST"`` (burst defaults to twice the rate, as in the template)."""
    rate_text, _, burst_text = text.partition(",")
    rate = float(rate_text)
    burst = int(burst_text) if burst_text else max(1, int(rate * 2))
    TokenBucket(rate, burst)  # validates
    return rate, burst
