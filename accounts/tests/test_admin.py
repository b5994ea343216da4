"""The user admin for staff: pages, searches, filters, forms and the "Make shop admin" action."""

import pytest
from allauth.account.models import EmailAddress

from accounts.models import User
from accounts.tests.factories import AdminFactory, UserFactory

CHANGELIST = "/admin/accounts/user/"


def messages_of(response) -> list[str]:
    return [str(m) for m in response.context["messages"]]


def profile_form(user, **changes) -> dict:
    """The change form as the browser posts it."""
    data = {
        "email": user.email,
        "name": user.name,
        "education": user.education,
        "location": user.location,
        "phone": user.phone,
        "linkedin": user.linkedin,
        "role": user.role,
        "is_active": "on",
    }
    data.update(changes)
    return data


@pytest.mark.parametrize(
    "query",
    ["", "?q=user", "?role__exact=admin", "?is_staff__exact=1", "?is_active__exact=0", "?o=2"],
)
def test_changelist_answers(staff_client, query):
    UserFactory(email="someone@example.com")
    response = staff_client.get(CHANGELIST + query)
    assert response.status_code == 200


def test_search_finds_by_email_and_name(staff_client):
    UserFactory(email="rider@example.com", name="Valentino")
    UserFactory(email="other@example.com", name="Marc")
    response = staff_client.get(CHANGELIST + "?q=valent")
    assert [u.email for u in response.context["cl"].result_list] == ["rider@example.com"]


def test_role_filter(staff_client, staff):
    UserFactory()
    response = staff_client.get(CHANGELIST + "?role__exact=admin")
    assert list(response.context["cl"].result_list) == [staff]


def test_change_and_add_pages_answer(staff_client):
    user = UserFactory()
    assert staff_client.get(f"{CHANGELIST}{user.pk}/change/").status_code == 200
    assert staff_client.get(f"{CHANGELIST}{user.pk}/password/").status_code == 200
    assert staff_client.get(f"{CHANGELIST}add/").status_code == 200


def test_add_user_goes_through_the_service(staff_client):
    response = staff_client.post(
        f"{CHANGELIST}add/",
        {
            "email": " New.Rider@Example.com ",
            "name": "New Rider",
            "role": "user",
            "usable_password": "true",
            "password1": "s3cret-pass",
            "password2": "s3cret-pass",
        },
    )
    assert response.status_code == 302, response.context["adminform"].form.errors
    user = User.objects.get(email="new.rider@example.com")
    assert user.name == "New Rider"
    assert user.check_password("s3cret-pass")
    assert EmailAddress.objects.filter(user=user, email=user.email, primary=True).exists()


def test_add_user_rejects_a_taken_email(staff_client):
    UserFactory(email="taken@example.com")
    response = staff_client.post(
        f"{CHANGELIST}add/",
        {"email": "TAKEN@example.com", "name": "X", "role": "user", "usable_password": "false"},
    )
    assert response.status_code == 200
    assert "email" in response.context["adminform"].form.errors
    assert User.objects.filter(email__iexact="taken@example.com").count() == 1


def test_change_user_normalizes_the_profile(staff_client):
    user = UserFactory()
    response = staff_client.post(
        f"{CHANGELIST}{user.pk}/change/",
        profile_form(user, phone="+44 113 000-0000", linkedin="https://linkedin.com/in/rider"),
    )
    assert response.status_code == 302
    user.refresh_from_db()
    assert user.phone == "+441130000000"
    assert user.linkedin == "https://linkedin.com/in/rider"


def test_change_user_rejects_unsafe_links(staff_client):
    user = UserFactory()
    response = staff_client.post(
        f"{CHANGELIST}{user.pk}/change/", profile_form(user, linkedin="javascript:alert(1)")
    )
    assert response.status_code == 200
    assert "linkedin" in response.context["adminform"].form.errors
    user.refresh_from_db()
    assert user.linkedin == ""


def test_make_shop_admin_action(staff_client):
    shopper = UserFactory()
    already = AdminFactory()
    response = staff_client.post(
        CHANGELIST,
        {"action": "make_shop_admin", "_selected_action": [shopper.pk, already.pk]},
        follow=True,
    )
    assert response.status_code == 200
    shopper.refresh_from_db()
    assert shopper.role == User.Role.ADMIN
    assert messages_of(response) == ["1 user(s) made shop admin. 1 already were."]


def test_admin_needs_staff(client, db):
    client.force_login(AdminFactory())  # a shop admin without is_staff is not Django staff
    response = client.get(CHANGELIST)
    assert response.status_code == 302
    assert response["Location"].startswith("/admin/login/")
