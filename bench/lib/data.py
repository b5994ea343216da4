"""The benchmark's shop: the demo data, a catalog of any size, a shopper with orders,
shoppers with tokens, and the stock check after the orders. Import after db.setup().
"""

import io
import time
from dataclasses import dataclass
from decimal import Decimal

from django.conf import settings
from django.core.cache import cache
from django.core.management import call_command
from django.db.models import Count, Sum
from django.db.models.functions import Coalesce
from django.test import Client
from rest_framework_simplejwt.tokens import RefreshToken

from accounts.models import User
from catalog.models import Part
from catalog.services import part_create
from orders.models import Booking, BookingLine
from orders.services import booking_place
from shop import demo_data

ADDRESS, PHONE = "1 Bench Street, Leeds", "+441130000000"


@dataclass
class Shop:
    part_id: int  # a part of the catalog (for /purchaseintent and /api/allparts/{id})
    order_id: int  # one of the shopper's unpaid orders
    shopper_email: str
    shopper_session: str  # session cookie value of the shopper
    admin_session: str
    tokens: list[str]  # access tokens of the ordering shoppers, one each


def seed(*, parts: int, orders: int, shoppers: int) -> Shop:
    """Demo data, the catalog topped up to `parts`, the demo shopper with `orders` orders,
    and `shoppers` more users with tokens (for the ordering load)."""
    call_command("seed_demo", stdout=io.StringIO())
    grow_catalog(parts)
    shopper = User.objects.get(email=demo_data.USER.email)
    admin = User.objects.get(email=demo_data.ADMIN.email)
    placed = [
        booking_place(
            user=shopper,
            part=part,
            quantity=part.minimum_order_quantity,
            address=ADDRESS,
            phone=PHONE,
        )
        for part in Part.objects.order_by("id")[:orders]
    ]
    return Shop(
        part_id=placed[0].lines.get().part_id,
        order_id=placed[0].pk,
        shopper_email=shopper.email,
        shopper_session=session_of(shopper),
        admin_session=session_of(admin),
        tokens=[token_of(user) for user in _users(shoppers)],
    )


def reseed() -> Shop:
    """The Shop of a database seed() filled before (new sessions and a token)."""
    shopper = User.objects.get(email=demo_data.USER.email)
    admin = User.objects.get(email=demo_data.ADMIN.email)
    first = shopper.bookings.filter(address=ADDRESS).order_by("id").first()
    return Shop(
        part_id=first.lines.get().part_id,
        order_id=first.pk,
        shopper_email=shopper.email,
        shopper_session=session_of(shopper),
        admin_session=session_of(admin),
        tokens=[token_of(user) for user in User.objects.filter(email__startswith="bench")],
    )


def grow_catalog(total: int) -> None:
    """Add generated parts (with the demo images) until the catalog holds `total` parts."""
    images = [part["img"] for part in demo_data.PARTS]
    missing = total - Part.objects.count()
    Part.objects.bulk_create(
        Part(
            name=f"Bench part {n:05d}",
            img=images[n % len(images)],
            description="A generated part for the benchmark's catalog.",
            price=Decimal("10.00") + n % 90,
            minimum_order_quantity=1 + n % 3,
            available_quantity=100 + n % 400,
        )
        for n in range(missing)
    )
    cache.clear()  # bulk_create sends no signals; the cache is the benchmark's own (a Redis db)


def new_part(*, stock: int) -> int:
    """A part for the ordering load (minimum order 1); its id."""
    part = part_create(
        name=f"Bench stock {stock}",
        price=Decimal("5.00"),
        minimum_order_quantity=1,
        available_quantity=stock,
    )
    return part.pk


def one_line_each(bookings: list[Booking], parts: list[tuple[int, str, Decimal, int]]) -> None:
    """The line of each order made in bulk (with its id), as booking_place writes it: of
    `parts`' (part id, name, unit price, quantity) at the same place. An order is its lines:
    what every reader and rule of orders reads."""
    BookingLine.objects.bulk_create(
        BookingLine(
            booking_id=booking.pk,
            part_id=part_id,
            parts_name=name,
            price_per_unit=price,
            quantity=quantity,
            line_total=price * quantity,
        )
        for booking, (part_id, name, price, quantity) in zip(bookings, parts, strict=True)
    )


def stock_check(part_id: int, *, settle: float = 10) -> tuple[int, int, int]:
    """(stock left, orders placed, units ordered) of a part, once no order is in flight (the
    figures stay the same for half a second; at most `settle` seconds). No oversell: the stock
    it started with is stock left + units ordered, and stock left is not negative."""
    deadline, last = time.monotonic() + settle, None
    while True:
        # One statement: the stock and the orders from the same snapshot.
        now = (
            Part.objects.filter(pk=part_id)
            .annotate(n=Count("booking_lines"), q=Coalesce(Sum("booking_lines__quantity"), 0))
            .values_list("available_quantity", "n", "q")
            .get()
        )
        if now == last or time.monotonic() > deadline:
            return now
        last = now
        time.sleep(0.5)


def session_of(user) -> str:
    """A signed-in session for `user` (database and cache, as a login makes it)."""
    client = Client()
    client.force_login(user)
    return client.cookies[settings.SESSION_COOKIE_NAME].value


def token_of(user) -> str:
    return str(RefreshToken.for_user(user).access_token)


def _users(count: int) -> list:
    users = [User(email=f"bench{n}@example.com", name=f"Bench Rider {n}") for n in range(count)]
    for user in users:
        user.set_unusable_password()
    return User.objects.bulk_create(users)
