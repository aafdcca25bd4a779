"""Orderly billing worker: consumes jobs from Redis and talks to the payment gateway."""

__version__ = "1.4.0"
