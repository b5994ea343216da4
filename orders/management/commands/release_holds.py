"""Put the stock of unpaid orders whose hold lapsed back on the shelf (Celery beat runs the
same service every minute where a worker runs; ordering a part also releases its lapsed holds,
so nothing depends on this running)."""

from django.core.management.base import BaseCommand

from orders.services import booking_release_lapsed_holds


class Command(BaseCommand):
    help = (
        "Release the stock held by unpaid orders whose hold (ORDER_HOLD_SECONDS) has lapsed. "
        "Each order is released exactly once, under its row lock; safe to run at any time, "
        "also beside a running worker."
    )

    def handle(self, *args, **options):
        released = booking_release_lapsed_holds()
        self.stdout.write(f"{released} lapsed hold(s) released.")
