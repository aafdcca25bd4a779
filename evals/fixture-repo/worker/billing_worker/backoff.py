"""Retry delays for jobs and gateway calls."""

import random


def jittered_delay(attempt: int, base_seconds: float = 2.0, cap_seconds: float = 300.0) -> float:
    """Delay before retry number `attempt` (0-based): exponential growth with "equal jitter".

    Half of the exponential delay is fixed and half is random, so retries spread out but never
    come back immediately (AWS Architecture Blog, "Exponential Backoff And Jitter").
    """
    exponential = min(cap_seconds, base_seconds * (2 ** attempt))
    return exponential / 2 + random.uniform(0, exponential / 2)


def is_retryable(error_code: str) -> bool:
    """Gateway timeouts and rate limits are worth retrying; card declines are not."""
    return error_code in {"gateway_timeout", "gateway_unavailable", "rate_limited"}
