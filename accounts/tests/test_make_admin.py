from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from accounts.models import User


def make_admin(email: str) -> str:
    """Run the command and return what it printed."""
    out = StringIO()
    call_command("make_admin", email, stdout=out)
    return out.getvalue()


def test_makes_a_user_shop_admin(user):
    assert make_admin(user.email) == f"{user.email} is now a shop admin.\n"
    user.refresh_from_db()
    assert user.role == User.Role.ADMIN
    assert user.is_shop_admin


def test_email_is_matched_in_any_letter_case(user):
    assert make_admin(f"  {user.email.upper()} ") == f"{user.email} is now a shop admin.\n"
    user.refresh_from_db()
    assert user.role == User.Role.ADMIN


def test_already_admin_is_reported_and_unchanged(admin_user):
    assert make_admin(admin_user.email) == f"{admin_user.email} was already a shop admin.\n"
    admin_user.refresh_from_db()
    assert admin_user.role == User.Role.ADMIN


def test_unknown_email_is_a_command_error(user):
    with pytest.raises(CommandError, match="No user has the e-mail address 'nobody@example.com'"):
        make_admin("nobody@example.com")
    user.refresh_from_db()
    assert user.role == User.Role.USER
