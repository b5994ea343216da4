import pytest
from django.core.exceptions import ValidationError

from accounts.models import User
from accounts.services import user_create, user_make_admin
from accounts.tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def test_user_create_turns_a_duplicate_into_a_field_error():
    user_create(email="dup@example.com", name="A", password="secret1")
    with pytest.raises(ValidationError) as caught:
        user_create(email="DUP@example.com", name="B", password="secret1")
    assert caught.value.message_dict == {"email": ["An account with this email already exists"]}
    assert User.objects.count() == 1


def test_make_admin_reports_whether_anything_changed():
    user = UserFactory()
    assert user_make_admin(user=user) is True
    assert user_make_admin(user=user) is False
    user.refresh_from_db()
    assert user.role == User.Role.ADMIN
