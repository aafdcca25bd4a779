"""Monthly revenue reports for finance."""

import csv
import io
from collections import defaultdict
from datetime import date


def month_bounds(year: int, month: int) -> tuple[date, date]:
    """First day of the month and first day of the next month (half-open range)."""
    start = date(year, month, 1)
    end = date(year + 1, 1, 1) if month == 12 else date(year, month + 1, 1)
    return start, end


def revenue_by_currency(invoices) -> dict[str, dict[str, int]]:
    """Sums paid invoices per currency: net, tax and gross, in minor units."""
    totals: dict[str, dict[str, int]] = defaultdict(lambda: {"net": 0, "tax": 0, "gross": 0})
    for invoice in invoices:
        if invoice.status != "paid":
            continue
        bucket = totals[invoice.currency]
        bucket["net"] += invoice.subtotal_cents
        bucket["tax"] += invoice.tax_cents
        bucket["gross"] += invoice.total_cents
    return dict(totals)


def render_revenue_csv(totals: dict[str, dict[str, int]]) -> str:
    """One CSV row per currency, amounts in major units with two decimals."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(["currency", "net", "tax", "gross"])
    for currency in sorted(totals):
        row = totals[currency]
        writer.writerow([currency] + [f"{row[k] / 100:.2f}" for k in ("net", "tax", "gross")])
    return out.getvalue()
