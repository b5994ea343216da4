"""My Profile at /dashboard and /dashboard/profile: the details and the update form."""

import pytest

from accounts.serializers import PROFILE_REQUIRED
from accounts.validators import LINKEDIN_INVALID
from accounts.views import PROFILE_UPDATED
from core.phones import PHONE_INVALID
from core.tests.pages import buttons, field_error, fields, label_of, toasts

pytestmark = pytest.mark.django_db

PROFILE_URLS = ["/dashboard", "/dashboard/profile"]
VALID = {
    "education": "BSc Mechanical Engineering",
    "location": "Leeds, UK",
    "phone": "+44 113 496 0000",
    "linkedin": "https://www.linkedin.com/in/rider",
}
REQUIRED = PROFILE_REQUIRED


@pytest.fixture
def signed_in(client, user):
    client.force_login(user)
    return client


@pytest.mark.parametrize("url", PROFILE_URLS)
def test_anonymous_visitors_go_to_login_remembering_the_page(client, url):
    response = client.get(url)
    assert response.status_code == 302
    assert response["Location"] == f"/login?next={url}"


@pytest.mark.parametrize("url", PROFILE_URLS)
def test_profile_shows_the_heading_details_and_the_update_form(signed_in, user, url):
    user.education, user.location, user.phone = "MSc Design", "Bristol", "+441170000000"
    user.linkedin = "https://www.linkedin.com/in/someone"
    user.save()

    response = signed_in.get(url)

    html = response.content.decode()
    assert response.status_code == 200
    assert "My Profile" in html
    for text in (user.name, user.email, "MSc Design", "Bristol", "+441170000000"):
        assert text in html
    assert '<a href="https://www.linkedin.com/in/someone"' in html
    assert 'rel="noopener"' in html
    form = fields(response)
    assert {name: form[name]["type"] for name in VALID} == {
        "education": "text",
        "location": "text",
        "phone": "tel",
        "linkedin": "url",
    }
    assert form["education"]["value"] == "MSc Design"
    assert label_of(response, "linkedin") == "LinkedIn"
    assert "Update profile" in buttons(response)
    assert "novalidate data-loading" in html


def test_an_empty_profile_says_not_set_and_links_nothing(signed_in):
    response = signed_in.get("/dashboard/profile")

    html = response.content.decode()
    assert html.count("Not set") == 4
    assert 'href="https://www.linkedin.com' not in html


@pytest.mark.parametrize("url", PROFILE_URLS)
def test_a_valid_update_is_saved_and_says_user_updated(signed_in, user, url):
    response = signed_in.post(url, VALID)

    assert response.status_code == 302
    assert response["Location"] == url
    user.refresh_from_db()
    assert (user.education, user.location, user.phone, user.linkedin) == (
        "BSc Mechanical Engineering",
        "Leeds, UK",
        "+441134960000",  # the API's phone rule drops the spaces
        "https://www.linkedin.com/in/rider",
    )
    page = signed_in.get(url)
    assert toasts(page) == [PROFILE_UPDATED] == ["user updated"]
    assert "+441134960000" in page.content.decode()


@pytest.mark.parametrize("missing", list(REQUIRED))
@pytest.mark.parametrize("blank", ["", "   ", None])
def test_every_field_is_required(signed_in, user, missing, blank):
    data = (
        {**VALID, missing: blank}
        if blank is not None
        else {k: v for k, v in VALID.items() if k != missing}
    )

    response = signed_in.post("/dashboard/profile", data)

    assert response.status_code == 200
    assert field_error(response, missing) == REQUIRED[missing]
    assert [field_error(response, other) for other in REQUIRED if other != missing] == ["", "", ""]
    user.refresh_from_db()
    assert user.education == ""
    assert toasts(response) == []


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("phone", "call me", PHONE_INVALID),
        ("phone", "12", PHONE_INVALID),
        ("linkedin", "linkedin.com/in/rider", LINKEDIN_INVALID),
        ("linkedin", "javascript:alert(1)", LINKEDIN_INVALID),
    ],
)
def test_invalid_values_show_the_apis_message_and_keep_what_was_typed(
    signed_in, user, field, value, message
):
    response = signed_in.post("/dashboard/profile", {**VALID, field: value})

    assert response.status_code == 200
    assert field_error(response, field) == message
    form = fields(response)
    assert form[field]["value"] == value
    assert form[field]["aria-invalid"] == "true"
    assert form["education"]["value"] == VALID["education"]
    user.refresh_from_db()
    assert user.phone == "" and user.linkedin == ""


def test_all_four_messages_at_once(signed_in):
    response = signed_in.post("/dashboard/profile", {})

    assert {name: field_error(response, name) for name in REQUIRED} == REQUIRED


def test_the_update_changes_only_the_signed_in_user(signed_in, user, other_user):
    signed_in.post("/dashboard/profile", {**VALID, "email": other_user.email})

    other_user.refresh_from_db()
    user.refresh_from_db()
    assert other_user.education == ""
    assert user.education == VALID["education"]
