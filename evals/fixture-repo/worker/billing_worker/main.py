"""Worker entry point: `python -m billing_worker.main [--replay-dead]`."""

import argparse
import logging
import os
import signal
import time

import redis

from .backoff import jittered_delay
from .charges import RetryLater, charge_invoice
from .queue import JobQueue

log = logging.getLogger("billing_worker")
_running = True


def _stop(signum, frame):
    global _running
    _running = False


def handle_job(job, deps) -> None:
    """Dispatches one job by type."""
    if job.type == "charge_invoice":
        charge_invoice(deps["db"], deps["gateway"], deps["mailer"], job.payload["invoiceId"])
    else:
        log.warning("unknown job type %s", job.type)


def run_forever(queue: JobQueue, deps) -> None:
    """Processes jobs until SIGTERM; transient failures sleep with jitter and retry."""
    signal.signal(signal.SIGTERM, _stop)
    while _running:
        reserved = queue.reserve()
        if reserved is None:
            continue
        job, raw = reserved
        try:
            handle_job(job, deps)
            queue.ack(raw)
        except RetryLater as exc:
            log.info("job %s will retry: %s", job.type, exc)
            time.sleep(jittered_delay(job.attempts))
            queue.fail(job, raw)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--replay-dead", action="store_true", help="move dead jobs back to the queue and exit")
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO)
    queue = JobQueue(redis.Redis.from_url(os.environ["REDIS_URL"], decode_responses=True))
    if args.replay_dead:
        print(f"replayed {queue.replay_dead()} jobs")
        return
    run_forever(queue, deps={})


if __name__ == "__main__":
    main()
