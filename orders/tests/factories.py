from datetime import timedelta

import factory
from django.db import transaction
from django.utils import timezone

from accounts.tests.factories import UserFactory
from catalog.tests.factories import PartFactory
from core.caching import versions
from orders.models import Booking, BookingLine, Cart, CartLine
from orders.selectors import CACHE
from orders.services import guest_key_new, invoice_number_take

# What the factory's order of one line bought: its line's fields, not the order's.
LINE_FIELDS = ("part", "parts_name", "price_per_unit", "quantity")
# `<cart>` of a cart with nothing in it, as the API answers it.
EMPTY_CART = {
    "lines": [],
    "count": 0,
    "subtotal": 0,
    "discount": 0,
    "voucher": None,
    "voucherProblem": None,
    "total": 0,
}


class BookingFactory(factory.django.DjangoModelFactory):
    """An order of one line as booking_place would store it (the part's stock is not touched),
    in any state: `part`, `parts_name`, `price_per_unit` and `quantity` are its line's. A paid
    one takes the invoices' next number, as a payment does (unless `invoice_number` is given).
    The orders' cached reads are made stale, as every service that writes one does."""

    class Meta:
        model = Booking

    @classmethod
    def _create(cls, model_class, *args, **kwargs):
        line = {field: kwargs.pop(field) for field in LINE_FIELDS}
        if kwargs.get("paid") and "invoice_number" not in kwargs:
            with transaction.atomic():  # taken in a transaction, as a payment takes it
                paid_at = kwargs.get("paid_at") or timezone.now()
                kwargs["invoice_number"] = invoice_number_take(paid_at=paid_at)
        booking = super()._create(model_class, *args, **kwargs)
        BookingLine.objects.create(booking=booking, line_total=booking.total_price, **line)
        versions.bump(CACHE)
        return booking

    user = factory.SubFactory(UserFactory)
    part = factory.SubFactory(PartFactory)
    email = factory.SelfAttribute("user.email")
    name = factory.SelfAttribute("user.name")
    parts_name = factory.SelfAttribute("part.name")
    price_per_unit = factory.SelfAttribute("part.price")
    quantity = 3
    total_price = factory.LazyAttribute(lambda o: o.price_per_unit * o.quantity)
    subtotal = factory.SelfAttribute("total_price")
    address = "12 Harbour Road, Leeds"
    phone = "+441130000000"
    expires_at = factory.LazyFunction(lambda: timezone.now() + timedelta(minutes=30))

    class Params:
        # A guest's order (no account): its e-mail and its private key.
        guest = factory.Trait(
            user=None,
            email="ann@example.com",
            name="Ann Rider",
            guest_key=factory.LazyFunction(guest_key_new),
        )
        # Unpaid past its hold, its stock not yet released (booking_expire does that).
        lapsed = factory.Trait(
            expires_at=factory.LazyFunction(lambda: timezone.now() - timedelta(seconds=1))
        )
        paid_order = factory.Trait(
            paid=True, transaction_id="pi_test_paid", paid_at=factory.LazyFunction(timezone.now)
        )
        shipped = factory.Trait(
            paid=True,
            transaction_id="pi_test_paid",
            status="approved",
            paid_at=factory.LazyFunction(timezone.now),
        )


class CartLineFactory(factory.django.DjangoModelFactory):
    """A line of a cart (an account's, unless `cart` is given), remembering its part's price
    as cart_add does."""

    class Meta:
        model = CartLine

    cart = factory.LazyFunction(lambda: Cart.objects.create(user=UserFactory()))
    part = factory.SubFactory(PartFactory)
    quantity = factory.SelfAttribute("part.minimum_order_quantity")
    price_when_added = factory.SelfAttribute("part.price")
