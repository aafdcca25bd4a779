from datetime import datetime, timedelta

from billing_worker.dunning import late_fee_cents, next_reminder_at


def test_reminders_follow_schedule():
    start = datetime(2024, 1, 1)
    assert next_reminder_at(start, 0) == start + timedelta(days=3)
    assert next_reminder_at(start, 2) == start + timedelta(days=14)
    assert next_reminder_at(start, 3) is None


def test_late_fee_from_second_reminder():
    assert late_fee_cents(10_000, 1) == 0
    assert late_fee_cents(10_000, 2) == 250
