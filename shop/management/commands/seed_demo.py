"""Fill the shop with demo data: categories, parts with their part numbers and weights, the bikes
they fit, shipping methods ("Standard", free and the default; "Express") and vouchers to try,
reviews, two accounts, the shopper's orders in every state and their reviews of two parts they
bought for their MT-07. Safe to run again: nothing is created twice. Nobody is mailed about the
demo orders, and the demo accounts are the last lines printed.

With DEBUG off it never sets the well-known demo passwords: new demo accounts get random
ones, printed once. It never promotes an account it did not create.
"""

import secrets

from django.conf import settings
from django.core.management.base import BaseCommand
from django.db import transaction
from django.utils import timezone

from accounts.models import User
from accounts.selectors import user_get_by_email
from accounts.services import user_create, user_make_admin
from catalog.models import Part, Vehicle
from catalog.services import (
    category_get_or_create,
    fitment_set,
    part_create,
    part_numbers_set,
    part_update,
    vehicle_get_or_create,
)
from core import background
from orders.models import Booking
from orders.services import (
    booking_approve,
    booking_expire,
    booking_mark_paid,
    booking_place,
    booking_refund,
)
from pricing.models import ShippingMethod
from pricing.services import shipping_method_create, voucher_create
from pricing.vouchers import voucher_find
from reviews.models import PartReview, Review
from reviews.services import part_review_create, review_create
from shop import demo_data, demo_fitment
from shop.demo_data import DemoAccount


class Command(BaseCommand):
    help = (
        "Create demo categories, parts (with part numbers and weights), motorcycles and the "
        "bikes each part fits, shipping methods and vouchers, reviews, a shop admin and a shopper with an order in each state. Running it "
        "again creates nothing twice: parts are matched by name, vehicles by make, model and "
        "year, reviews by name and text, users by e-mail. With DEBUG off new demo accounts get "
        "random passwords, printed once."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "--if-empty",
            action="store_true",
            help="Do nothing when the shop already has parts (what `make run` uses).",
        )

    def handle(self, *args, **options):
        if options["if_empty"] and Part.objects.exists():
            self.stdout.write("The shop already has parts: demo data not loaded (--if-empty).")
            self.write_accounts({})
            return
        # The demo orders are made-up history: nobody is mailed about them.
        with transaction.atomic(), background.muted():
            admin, admin_password = account_get_or_create(demo_data.ADMIN)
            if admin_password:  # created just now: never promote an account found here
                superuser_make(admin)
            shopper, shopper_password = account_get_or_create(demo_data.USER)
            new_parts = parts_seed()
            pricing_seed()
            new_vehicles = fitment_seed()
            new_reviews = reviews_seed()
            new_orders = demo_orders_seed(user=shopper) if shopper_password else 0
            if shopper_password:  # never under the name of an account it did not create
                part_reviews_seed(user=shopper)
        self.stdout.write(
            f"Demo data ready: {new_parts} new parts, {new_vehicles} new vehicles, "
            f"{new_reviews} new reviews, {new_orders} new orders ({Part.objects.count()} parts, "
            f"{Vehicle.objects.count()} vehicles, "
            f"{Review.objects.count()} reviews, {PartReview.objects.count()} part reviews and "
            f"{Booking.objects.count()} orders in the shop)."
        )
        self.write_accounts({demo_data.ADMIN: admin_password, demo_data.USER: shopper_password})

    def write_accounts(self, new_passwords: dict[DemoAccount, str | None]) -> None:
        """The demo accounts that exist, one sign-in line each: always the last lines printed
        (`make run` shows them last)."""
        found = [
            (account, user)
            for account in (demo_data.ADMIN, demo_data.USER)
            if (user := user_get_by_email(account.email)) is not None
        ]
        if not found:
            return
        self.stdout.write("Demo accounts:")
        for account, user in found:
            self.write_account(account, user, new_passwords.get(account))

    def write_account(self, account: DemoAccount, user: User, new_password: str | None) -> None:
        """One sign-in line. A password is shown when it was set just now, or when it is still
        the well-known demo one (DEBUG on); anything else stays a secret."""
        if new_password:
            password = new_password
        elif settings.DEBUG and user.check_password(account.password):
            password = account.password
        else:
            password = "(not shown: set earlier)"
        line = f"  {account.label + ':':<12} {account.email:<18} password: {password}"
        if account.note and user.is_superuser:
            line += f"  ({account.note})"
        self.stdout.write(self.style.SUCCESS(line))


def account_get_or_create(account: DemoAccount) -> tuple[User, str | None]:
    """The account with this e-mail and None, or a new one and the password it was given:
    the demo password with DEBUG on, a random one with DEBUG off."""
    user = user_get_by_email(account.email)
    if user is not None:
        return user, None
    password = account.password if settings.DEBUG else secrets.token_urlsafe(12)
    user = user_create(email=account.email, name=account.name, password=password)
    return user, password


def superuser_make(user: User) -> None:
    """Shop admin by role, and staff + superuser so the Django admin opens too."""
    user_make_admin(user=user)
    user.is_staff = user.is_superuser = True
    user.save(update_fields=["is_staff", "is_superuser"])


def parts_seed() -> int:
    """Create the demo parts not there yet (by name), each on its category; the number
    created. Demo parts found without a category are put on theirs."""
    categories = {
        slug: category_get_or_create(slug=slug, name=name)
        for slug, name in demo_data.CATEGORIES.items()
    }
    existing = {
        part.name: part
        for part in Part.objects.filter(name__in=[p["name"] for p in demo_data.PARTS])
    }
    created = 0
    # The shop lists the newest first: create in reverse so the list keeps demo_data's order.
    for fields in reversed(demo_data.PARTS):
        category = categories[fields["category"]]
        part = existing.get(fields["name"])
        if part is None:
            part_create(**{**fields, "category": category})
            created += 1
            continue
        if part.category_id is None:
            part_update(part=part, category=category)
        if not part.part_number:  # seeded before parts had numbers
            part_update(part=part, part_number=fields["part_number"])
        if not part.weight:  # seeded before parts had weights
            part_update(part=part, weight=fields["weight"])
        if not part.brand:  # seeded before parts had brands
            part_update(part=part, brand=fields["brand"])
    numbers_seed()
    return created


def numbers_seed() -> None:
    """The demo parts' other numbers, on the parts that have none yet."""
    parts = Part.objects.filter(name__in=demo_data.OTHER_NUMBERS, other_numbers=None)
    for part in parts:
        part_numbers_set(part=part, numbers=demo_data.OTHER_NUMBERS[part.name])


def pricing_seed() -> None:
    """The demo shipping methods and vouchers not there yet (by name, by code); a shop that
    already has methods keeps its default."""
    names = set(ShippingMethod.objects.values_list("name", flat=True))
    for fields in demo_data.SHIPPING_METHODS:
        if fields["name"] not in names:
            default = fields.get("is_default", False) and not names
            shipping_method_create(**{**fields, "is_default": default})
    for fields in demo_data.VOUCHERS:
        if voucher_find(fields["code"]) is None:
            voucher_create(**fields)


def fitment_seed() -> int:
    """The demo motorcycles, and the bikes each demo part fits (a part that already lists
    some, or fits every bike, is left as it is); the number of vehicles created."""
    before = Vehicle.objects.count()
    vehicles = {
        (make, model, year): vehicle_get_or_create(make=make, model=model, year=year).pk
        for make, model, first, last in demo_fitment.BIKES
        for year in range(first, last + 1)
    }
    parts = Part.objects.filter(name__in=demo_fitment.FITS, universal=False, fitments=None)
    for part in parts:
        ids = [
            vehicles[(make, model, year)]
            for make, model, first, last in demo_fitment.FITS[part.name]
            for year in range(first, last + 1)
        ]
        fitment_set(part=part, universal=False, vehicle_ids=ids)
    return Vehicle.objects.count() - before


def reviews_seed() -> int:
    """Create the demo reviews not there yet (by name and text); the number created."""
    created = 0
    for review in demo_data.REVIEWS:
        if not Review.objects.filter(name=review["name"], review=review["review"]).exists():
            review_create(user=None, **review)
            created += 1
    return created


def part_reviews_seed(*, user: User) -> None:
    """The demo shopper's part reviews (demo_data.PART_REVIEWS), of parts it has none of."""
    for demo in demo_data.PART_REVIEWS:
        part = Part.objects.filter(name=demo.part).first()
        if part is None or PartReview.objects.filter(user=user, part=part).exists():
            continue
        make, model, year = demo.bike
        part_review_create(
            user=user,
            part=part,
            rating=demo.rating,
            title=demo.title,
            body=demo.body,
            vehicle=vehicle_get_or_create(make=make, model=model, year=year),
            fits=demo.fits,
        )


def demo_orders_seed(*, user: User) -> int:
    """The new demo shopper's orders, one in each state, through the ordering rules (so
    stock is reserved as for any order); the number created."""
    created = 0
    # Shipped by the demo's own free "Standard" (a shop's own default may not carry them).
    standard = ShippingMethod.objects.filter(name="Standard").values_list("pk", flat=True)
    for order in demo_data.ORDERS:
        part = Part.objects.filter(name=order.part).first()
        if part is None or part.available_quantity < order.quantity:
            continue
        booking = booking_place(
            user=user,
            part=part,
            quantity=order.quantity,
            address=demo_data.ADDRESS,
            phone=demo_data.PHONE,
            shipping_method=standard.first(),
        )
        if order.state in {Booking.State.PENDING, Booking.State.SHIPPED, Booking.State.REFUNDED}:
            booking_mark_paid(booking_id=booking.pk, transaction_id=f"pi_demo_{booking.pk}")
        if order.state == Booking.State.SHIPPED:
            booking_approve(booking=booking)
        if order.state == Booking.State.REFUNDED:
            # No card was charged for a demo order: the refund is recorded without Stripe.
            booking_refund(booking=booking, outside_stripe=True)
        if order.state == Booking.State.EXPIRED:
            # Demo only: its hold is made to lapse now instead of in ORDER_HOLD_SECONDS; the
            # stock then goes back through booking_expire, as for any lapsed hold.
            Booking.objects.filter(pk=booking.pk).update(expires_at=timezone.now())
            booking_expire(booking_id=booking.pk)
        created += 1
    return created
