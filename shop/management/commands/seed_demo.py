"""Fill the shop with demo parts, reviews and two accounts; safe to run again."""

from django.core.management.base import BaseCommand
from django.db import transaction

from accounts.models import User
from accounts.selectors import user_get_by_email
from accounts.services import user_create, user_make_admin
from catalog.models import Part
from catalog.services import part_create
from reviews.models import Review
from reviews.services import review_create
from shop import demo_data
from shop.demo_data import DemoAccount


class Command(BaseCommand):
    help = (
        "Create demo parts, reviews, a shop admin and a shopper. Running it again creates "
        "nothing twice: parts are matched by name, reviews by name and text, users by e-mail."
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
            return
        with transaction.atomic():
            admin = account_get_or_create(demo_data.ADMIN)
            superuser_ensure(admin)
            user = account_get_or_create(demo_data.USER)
            new_parts = parts_seed()
            new_reviews = reviews_seed()
        self.stdout.write(
            f"Demo data ready: {new_parts} new parts, {new_reviews} new reviews "
            f"({Part.objects.count()} parts and {Review.objects.count()} reviews in the shop)."
        )
        self.stdout.write("Demo accounts:")
        self.write_account(demo_data.ADMIN, admin)
        self.write_account(demo_data.USER, user)

    def write_account(self, account: DemoAccount, user: User) -> None:
        """One login line; an account whose password was changed keeps it a secret."""
        password = account.password if user.check_password(account.password) else "(changed)"
        line = f"  {account.label + ':':<12} {account.email:<18} password: {password}"
        if account.note:
            line += f"  ({account.note})"
        self.stdout.write(self.style.SUCCESS(line))


def account_get_or_create(account: DemoAccount) -> User:
    """The account with this e-mail, created when missing (an existing one is left as is)."""
    user = user_get_by_email(account.email)
    if user is None:
        user = user_create(email=account.email, name=account.name, password=account.password)
    return user


def superuser_ensure(user: User) -> None:
    """Shop admin by role, and staff + superuser so the Django admin opens too."""
    user_make_admin(user=user)
    if not (user.is_staff and user.is_superuser):
        user.is_staff = user.is_superuser = True
        user.save(update_fields=["is_staff", "is_superuser"])


def parts_seed() -> int:
    """Create the demo parts not there yet (by name); the number created."""
    names = [part["name"] for part in demo_data.PARTS]
    existing = set(Part.objects.filter(name__in=names).values_list("name", flat=True))
    missing = [part for part in demo_data.PARTS if part["name"] not in existing]
    # The shop lists the newest first: create in reverse so the list keeps demo_data's order.
    for part in reversed(missing):
        part_create(**part)
    return len(missing)


def reviews_seed() -> int:
    """Create the demo reviews not there yet (by name and text); the number created."""
    created = 0
    for review in demo_data.REVIEWS:
        if not Review.objects.filter(name=review["name"], review=review["review"]).exists():
            review_create(user=None, **review)
            created += 1
    return created
