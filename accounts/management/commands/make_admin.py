"""Give an existing user the shop-admin role (Django staff in the "Shop admins" group)."""

from django.core.management.base import BaseCommand, CommandError

from accounts.models import User
from accounts.selectors import user_get_by_email
from accounts.services import user_make_admin


class Command(BaseCommand):
    help = (
        "Make the user with this e-mail (any letter case) a shop admin (role admin, Django "
        "staff in the Shop admins group). Run on an admin again, it re-applies staff and "
        "group; --all does that for every shop admin (admins made before that rule)."
    )

    def add_arguments(self, parser):
        parser.add_argument("email", nargs="?", help="e-mail address of an existing user")
        parser.add_argument(
            "--all",
            action="store_true",
            help="re-apply staff and the Shop admins group to every user with role admin",
        )

    def handle(self, *args, **options):
        if options["all"]:
            admins = list(User.objects.filter(role=User.Role.ADMIN))
            for user in admins:
                user_make_admin(user=user)
            self.stdout.write(f"{len(admins)} shop admin(s) are Django staff in Shop admins.")
            return
        if not options["email"]:
            raise CommandError("Give an e-mail address, or --all.")
        user = user_get_by_email(options["email"])
        if user is None:
            raise CommandError(f"No user has the e-mail address {options['email']!r}.")
        if user_make_admin(user=user):
            self.stdout.write(self.style.SUCCESS(f"{user.email} is now a shop admin."))
        else:
            self.stdout.write(f"{user.email} was already a shop admin.")
