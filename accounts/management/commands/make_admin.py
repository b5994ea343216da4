"""Give an existing user the shop-admin role."""

from django.core.management.base import BaseCommand, CommandError

from accounts.selectors import user_get_by_email
from accounts.services import user_make_admin


class Command(BaseCommand):
    help = "Make the user with this e-mail (any letter case) a shop admin (role admin)."

    def add_arguments(self, parser):
        parser.add_argument("email", help="e-mail address of an existing user")

    def handle(self, *args, **options):
        user = user_get_by_email(options["email"])
        if user is None:
            raise CommandError(f"No user has the e-mail address {options['email']!r}.")
        if user_make_admin(user=user):
            self.stdout.write(self.style.SUCCESS(f"{user.email} is now a shop admin."))
        else:
            self.stdout.write(f"{user.email} was already a shop admin.")
