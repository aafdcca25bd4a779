"""Transactional emails sent by the worker."""

from dataclasses import dataclass
from email.message import EmailMessage
import smtplib


@dataclass
class Mailer:
    """Sends plain-text emails through an SMTP relay."""

    host: str
    port: int = 587
    sender: str = "billing@orderly.example"

    def _send(self, to: str, subject: str, body: str) -> None:
        message = EmailMessage()
        message["From"] = self.sender
        message["To"] = to
        message["Subject"] = subject
        message.set_content(body)
        with smtplib.SMTP(self.host, self.port) as smtp:
            smtp.starttls()
            smtp.send_message(message)

    def send_payment_reminder(self, invoice, late_fee_cents: int) -> None:
        """Tells the customer their payment failed and how to pay, with any late fee."""
        fee_line = f"A late fee of {late_fee_cents / 100:.2f} {invoice.currency} was added.\n" if late_fee_cents else ""
        self._send(
            invoice.customer_email,
            f"Payment failed for invoice {invoice.number}",
            f"We could not charge your card for invoice {invoice.number}.\n{fee_line}"
            "Please update your payment method in the dashboard.",
        )

    def send_receipt(self, invoice) -> None:
        """Confirms a successful payment."""
        self._send(invoice.customer_email, f"Receipt for invoice {invoice.number}", "Thank you, your payment was received.")
