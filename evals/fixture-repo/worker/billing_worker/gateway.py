"""Client of the card payment gateway."""

from dataclasses import dataclass

import httpx


@dataclass
class ChargeResult:
    succeeded: bool
    failure_code: str | None = None
    gateway_reference: str | None = None


class PaymentGateway:
    """Charges stored cards through the gateway's HTTP API."""

    def __init__(self, base_url: str, api_key: str, timeout_seconds: float = 15.0):
        self.client = httpx.Client(
            base_url=base_url,
            headers={"authorization": f"Bearer {api_key}"},
            timeout=timeout_seconds,
        )

    def charge(self, customer_id: int, amount_cents: int, currency: str, idempotency_key: str) -> ChargeResult:
        """Charges the customer's default card. The idempotency key makes a retried charge safe."""
        try:
            response = self.client.post(
                "/v1/charges",
                json={"customer": str(customer_id), "amount": amount_cents, "currency": currency.lower()},
                headers={"idempotency-key": idempotency_key},
            )
        except httpx.TimeoutException:
            return ChargeResult(succeeded=False, failure_code="gateway_timeout")
        if response.status_code == 429:
            return ChargeResult(succeeded=False, failure_code="rate_limited")
        if response.status_code >= 500:
            return ChargeResult(succeeded=False, failure_code="gateway_unavailable")
        body = response.json()
        if body.get("status") != "succeeded":
            return ChargeResult(succeeded=False, failure_code=body.get("decline_code", "gateway_declined"))
        return ChargeResult(succeeded=True, gateway_reference=body["id"])
