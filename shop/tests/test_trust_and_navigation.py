"""The footer's trust pages and social links, the navbar's current page, why /login was shown,
the shop's 404 page with DEBUG on, and Django admin in the shop's name."""

import re
from html import escape

import pytest

from accounts.tests.factories import UserFactory
from catalog.tests.factories import PartFactory
from core.tests.pages import toasts
from orders.tests.factories import BookingFactory
from shop import content

NOT_FOUND = "WE ARE SORRY, THE PAGE YOU REQUESTED WAS NOT FOUND"
pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("page", content.TRUST_PAGES, ids=lambda page: page.slug)
def test_each_trust_page_shows_the_owners_words(client, page):
    response = client.get(f"/{page.slug}")
    html = response.content.decode()

    assert response.status_code == 200
    assert re.search(rf"<h1[^>]*>{re.escape(escape(page.title))}</h1>", html)
    for section in page.sections:
        assert escape(section.paragraphs[0]) in html
    assert client.get(f"/{page.slug}/").status_code == 200


def test_the_footer_links_every_trust_page(client):
    html = client.get("/").content.decode()
    footer = html[html.index("<footer") :]

    for label, path in [
        ("Shipping &amp; returns", "/shipping-returns"),
        ("Privacy", "/privacy"),
        ("Terms", "/terms"),
        ("Contact", "/contact"),
    ]:
        assert re.search(rf'<a href="{path}"[^>]*>{label}</a>', footer), label


def test_social_links_are_hidden_when_unset(client, settings):
    settings.SOCIAL_LINKS = {"Facebook": "", "Instagram": "", "YouTube": "", "X": ""}

    html = client.get("/blogs").content.decode()

    assert 'aria-label="Social links"' not in html
    assert "facebook.com" not in html


def test_social_links_come_from_configuration(client, settings):
    settings.SOCIAL_LINKS = {
        "Facebook": "https://www.facebook.com/throttle.gear",
        "Instagram": "",
        "YouTube": "",
        "X": "https://x.com/throttlegear",
    }

    html = client.get("/blogs").content.decode()
    social = html[html.index('aria-label="Social links"') :]

    assert '<a href="https://www.facebook.com/throttle.gear" rel="noopener"' in social
    assert '<a href="https://x.com/throttlegear" rel="noopener"' in social
    assert "Instagram" not in social and "YouTube" not in social


@pytest.mark.parametrize(
    ("path", "label"),
    [("/", "Home"), ("/allparts", "All Parts"), ("/blogs", "Blogs"), ("/login", "Login")],
)
def test_the_navbar_marks_the_current_page(client, path, label):
    html = client.get(path).content.decode()

    current = re.findall(r'<a href="[^"]*" aria-current="page"[^>]*>([^<]+)</a>', html)
    assert set(current) == {label}


def test_visitors_sent_by_a_signed_in_page_are_told_why(client):
    response = client.get("/dashboard/myorder", follow=True)

    assert response.redirect_chain[-1][0] == "/login?next=/dashboard/myorder"
    assert "Please log in to continue." in response.content.decode()


def test_no_reason_when_a_visitor_opens_login_themselves(client):
    html = client.get("/login").content.decode()

    assert "Please log in to continue." not in html
    assert 'data-testid="sign-in-reason"' not in html


def test_a_shopper_signed_out_by_an_admin_page_is_told_why(client):
    client.force_login(UserFactory())

    response = client.get("/dashboard/manageorders", follow=True)
    html = response.content.decode()

    assert response.redirect_chain[-1][0] == "/login"
    assert "That page is for shop admins." in html
    assert "That page is for shop admins." not in toasts(response)  # on the page, not a toast
    assert "_auth_user_id" not in client.session


def test_missing_objects_show_the_shops_404_page_with_debug_on(client, settings):
    settings.DEBUG = True
    shopper, someone = UserFactory(), UserFactory()
    others_order = BookingFactory(user=someone, part=PartFactory())
    client.force_login(shopper)

    for path in ("/purchaseintent/999999", f"/dashboard/payment/{others_order.pk}"):
        response = client.get(path)
        html = response.content.decode()
        assert response.status_code == 404, path
        assert NOT_FOUND in html, path
        assert "URLconf" not in html, path  # not Django's debug page


def test_django_admin_wears_the_shops_name_and_favicon(admin_client_of_shop):
    html = admin_client_of_shop.get("/admin/").content.decode()

    assert "Throttle &amp; Gear administration" in html
    assert "Django administration" not in html
    assert 'rel="icon" href="/static/img/favicon.svg"' in html


@pytest.fixture
def admin_client_of_shop(staff_client):
    return staff_client
