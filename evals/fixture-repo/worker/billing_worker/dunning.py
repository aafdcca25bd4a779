"""Dunning: reminding customers whose payment failed, then giving up.

The schedule comes from `billing.dunning_schedule_days` (default 3, 7 and 14 days after the
first failed charge). After the last reminder the invoice is marked uncollectible.
"""

from datetime import datetime, timedelta

DEFAULT_SCHEDULE_DAYS = (3, 7, 14)
LATE_FEE_PERCENT = 2.5


def next_reminder_at(first_failure: datetime, reminders_sent: int, schedule=DEFAULT_SCHEDULE_DAYS):
    """When the next reminder is due, or None once every reminder of the schedule went out."""
    if reminders_sent >= len(schedule):
        return None
    return first_failure + timedelta(days=schedule[reminders_sent])


def late_fee_cents(total_cents: int, reminders_sent: int) -> int:
    """A late fee is added from the second reminder on: a percentage of the invoice total."""
    if reminders_sent < 2:
        return 0
    return round(total_cents * LATE_FEE_PERCENT / 100)


class DunningRun:
    """Sends the reminders that are due and closes invoices that ran out of reminders."""

    def __init__(self, db, mailer, now: datetime):
        self.db = db
        self.mailer = mailer
        self.now = now

    def run(self) -> int:
        sent = 0
        for invoice in self.db.open_invoices_with_failed_payments():
            due = next_reminder_at(invoice.first_failure_at, invoice.reminders_sent)
            if due is None:
                self.db.mark_uncollectible(invoice.id)
                continue
            if due <= self.now:
                fee = late_fee_cents(invoice.total_cents, invoice.reminders_sent + 1)
                self.mailer.send_payment_reminder(invoice, fee)
                self.db.record_reminder(invoice.id, fee)
                sent += 1
        return sent
