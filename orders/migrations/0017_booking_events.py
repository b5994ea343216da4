"""Orders gain their Timeline (Booking.events). Orders placed before it get the steps their
own fields tell (placed, paid, shipped, refunded, expired), so no order's Timeline starts
empty; notes and returns did not exist then."""

from django.db import migrations, models

BATCH = 500


def _money(amount) -> str:
    return f"${amount:,.2f}"


def _event(at, kind: str, text: str, amount=None) -> dict:
    amount = None if amount is None else str(amount)
    return {"at": at.isoformat(), "kind": kind, "text": text, "amount": amount, "by": None}


def _told_by_fields(order) -> list[dict]:
    events = [_event(order.created_at, "placed", f"Order placed ({_money(order.total_price)})")]
    if order.paid_at:
        invoice = f" (invoice {order.invoice_number})" if order.invoice_number else ""
        paid = f"Paid {_money(order.total_price)} by card{invoice}"
        events.append(_event(order.paid_at, "paid", paid))
    if order.shipped_at:
        tracking = f", tracking {order.tracking_number}" if order.tracking_number else ""
        shipped = "Shipped"
        if order.carrier or order.tracking_number:
            shipped = f"Shipped with {order.carrier or 'the carrier'}{tracking}"
        events.append(_event(order.shipped_at, "shipped", shipped))
    if order.refunded_at:
        refunded = f"Refunded {_money(order.total_price)}"
        events.append(_event(order.refunded_at, "refunded", refunded, order.total_price))
    if order.released_at and not order.paid:
        expired = "The hold lapsed unpaid: the order expired"
        events.append(_event(order.released_at, "expired", expired))
    return sorted(events, key=lambda event: event["at"])


def tell_the_past(apps, schema_editor):
    Booking = apps.get_model("orders", "Booking")
    orders = Booking.objects.order_by("pk")
    batch = []
    for order in orders.iterator(chunk_size=BATCH):
        order.events = _told_by_fields(order)
        batch.append(order)
        if len(batch) == BATCH:
            Booking.objects.bulk_update(batch, ["events"])
            batch = []
    Booking.objects.bulk_update(batch, ["events"])


class Migration(migrations.Migration):
    dependencies = [
        ("orders", "0016_invoices"),
    ]

    operations = [
        migrations.AddField(
            model_name="booking",
            name="events",
            field=models.JSONField(blank=True, default=list, editable=False),
        ),
        migrations.RunPython(tell_the_past, migrations.RunPython.noop, elidable=True),
    ]
