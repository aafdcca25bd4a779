"""The `charge_invoice` job: collect an open invoice from the customer's card."""

from .backoff import is_retryable
from .gateway import PaymentGateway


class RetryLater(Exception):
    """The job should be retried later (transient gateway trouble)."""


def charge_invoice(db, gateway: PaymentGateway, mailer, invoice_id: int) -> bool:
    """Charges one open invoice and records the attempt.

    Returns True when paid. Raises RetryLater on transient failures so the queue retries the
    job; a decline is final for this job and starts dunning instead.
    """
    invoice = db.get_invoice(invoice_id)
    if invoice is None or invoice.status != "open":
        return False
    result = gateway.charge(invoice.customer_id, invoice.total_cents, invoice.currency, f"invoice-{invoice.id}")
    db.record_payment_attempt(invoice.id, result.succeeded, result.failure_code)
    if result.succeeded:
        db.mark_paid(invoice.id)
        mailer.send_receipt(invoice)
        return True
    if is_retryable(result.failure_code or ""):
        raise RetryLater(result.failure_code)
    return False
