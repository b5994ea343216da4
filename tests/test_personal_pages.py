"""A signed-in person's own pages kept per session (core.caching.pages): served again only
to the same live session, and stale the moment what they show changes."""

from datetime import timedelta
from io import StringIO

import pytest
from allauth.account.forms import default_token_generator
from allauth.account.utils import user_pk_to_url_str
from django.contrib.auth.hashers import PBKDF2PasswordHasher, make_password
from django.contrib.messages import constants
from django.contrib.messages.storage.base import Message
from django.contrib.messages.storage.cookie import MessageEncoder
from django.core.management import call_command
from django.test import Client
from django.utils import timezone
from rest_framework.test import APIClient

from accounts.models import User
from accounts.tests.factories import TEST_PASSWORD, UserFactory
from catalog.services import part_delete
from catalog.tests.factories import PartFactory
from catalog.tests.test_admin import change_form_data
from orders.services import booking_mark_paid, booking_record_payment_failure, booking_refund
from orders.tests.factories import BookingFactory
from orders.views import seconds_while_minutes_left_hold

pytestmark = pytest.mark.django_db

MY_ORDER = "/dashboard/myorder"


def signed_in(user) -> Client:
    """A browser signed in as `user` that has seen a page once (its CSRF cookie is set)."""
    browser = Client()
    browser.force_login(user)
    assert browser.get("/dashboard/profile").status_code == 200
    return browser


def served(browser: Client, path: str) -> tuple[str, bool]:
    """The page's text, and whether it came from the cache (no template rendered)."""
    response = browser.get(path)
    assert response.status_code == 200, response
    return response.content.decode(), not response.templates


def kept(browser: Client, path: str) -> str:
    """The page, rendered once and then served from the cache (asserted)."""
    first, _ = served(browser, path)
    again, from_cache = served(browser, path)
    assert from_cache and again == first
    return again


@pytest.mark.parametrize("page", ["my order", "order page"])
def test_a_second_visit_is_served_from_the_cache(user, page):
    order = BookingFactory(user=user, parts_name="Chain and sprocket kit")
    path = MY_ORDER if page == "my order" else order.get_absolute_url()
    assert "Chain and sprocket kit" in kept(signed_in(user), path)


def test_each_session_gets_its_own_page(user, other_user):
    """Two shoppers on one URL, and one shopper in two browsers: nobody gets another's page."""
    BookingFactory(user=user, parts_name="Left mirror")
    BookingFactory(user=other_user, parts_name="Right mirror")
    mine, theirs = kept(signed_in(user), MY_ORDER), signed_in(other_user)
    page, from_cache = served(theirs, MY_ORDER)
    assert not from_cache
    assert "Right mirror" in page and "Left mirror" not in page
    assert "Left mirror" in mine and "Right mirror" not in mine
    _, from_cache = served(signed_in(user), MY_ORDER)  # the same user, a new session
    assert not from_cache


def test_an_admin_and_the_owner_of_an_order_each_get_their_own_page(user, admin_user):
    order = BookingFactory(user=user)
    owners = kept(signed_in(user), order.get_absolute_url())
    admins, from_cache = served(signed_in(admin_user), order.get_absolute_url())
    assert not from_cache
    assert f"{user.get_short_name()} (Sign Out)" in owners
    assert f"{admin_user.get_short_name()} (Sign Out)" in admins


def test_a_new_order_shows_at_once(user):
    browser = signed_in(user)
    kept(browser, MY_ORDER)
    BookingFactory(user=user, parts_name="Brake lever")
    page, from_cache = served(browser, MY_ORDER)
    assert "Brake lever" in page and not from_cache


def test_a_paid_order_shows_at_once_on_its_page(user):
    order = BookingFactory(user=user)
    browser = signed_in(user)
    assert "Unpaid" in kept(browser, order.get_absolute_url())
    booking_mark_paid(booking_id=order.pk, transaction_id="pi_test_paid")
    page, _ = served(browser, order.get_absolute_url())
    assert 'data-testid="order-state">Pending<' in page


def test_a_deleted_part_shows_at_once(user):
    part = PartFactory()
    order = BookingFactory(user=user, part=part, paid_order=True)
    browser = signed_in(user)
    link = part.get_absolute_url()
    assert link in kept(browser, order.get_absolute_url())
    part_delete(part=part)  # the paid order keeps its snapshot, and loses its link
    page, from_cache = served(browser, order.get_absolute_url())
    assert not from_cache and link not in page


def test_signing_out_ends_the_kept_pages(user):
    browser = signed_in(user)
    kept(browser, MY_ORDER)
    old_session = browser.cookies["sessionid"].value
    browser.post("/logout")
    browser.cookies["sessionid"] = old_session  # replayed after sign-out
    response = browser.get(MY_ORDER)
    assert response.status_code == 302 and response.url.startswith("/login")


def test_a_password_changed_elsewhere_signs_this_session_out(user):
    browser = signed_in(user)
    kept(browser, MY_ORDER)
    user.set_password("a whole new secret")
    user.save()
    response = browser.get(MY_ORDER)
    assert response.status_code == 302 and response.url.startswith("/login")


def test_a_deactivated_account_is_signed_out(user):
    browser = signed_in(user)
    kept(browser, MY_ORDER)
    user.is_active = False
    user.save()
    assert browser.get(MY_ORDER).status_code == 302


def test_a_new_name_shows_at_once(user):
    browser = signed_in(user)
    kept(browser, MY_ORDER)
    user.name = "Valentina"
    user.save()
    page, _ = served(browser, MY_ORDER)
    assert "Valentina (Sign Out)" in page


def test_signing_in_elsewhere_keeps_the_pages(user):
    """A sign-in only stamps last_login: other sessions' pages stay kept."""
    browser = signed_in(user)
    kept(browser, MY_ORDER)
    signed_in(user)
    _, from_cache = served(browser, MY_ORDER)
    assert from_cache


def test_a_pending_message_in_the_session_is_shown(user, settings):
    settings.MESSAGE_STORAGE = "django.contrib.messages.storage.session.SessionStorage"
    browser = signed_in(user)
    kept(browser, MY_ORDER)
    session = browser.session
    session["_messages"] = MessageEncoder().encode(
        [Message(constants.INFO, "Parcel sent.", extra_tags="")]
    )
    session.save()
    page, from_cache = served(browser, MY_ORDER)
    assert "Parcel sent." in page and not from_cache


def test_a_pending_message_cookie_bypasses_the_cache(user):
    browser = signed_in(user)
    kept(browser, MY_ORDER)
    browser.cookies["messages"] = "pending"
    _, from_cache = served(browser, MY_ORDER)
    assert not from_cache


def test_the_kept_page_carries_a_working_csrf_token(user):
    """The sign-out form of a kept page still signs out (CSRF checked)."""
    browser = Client(enforce_csrf_checks=True)
    browser.force_login(user)
    browser.get(MY_ORDER)
    page = kept(browser, MY_ORDER)
    token = page.split('name="csrfmiddlewaretoken" value="')[1].split('"')[0]
    response = browser.post("/logout", {"csrfmiddlewaretoken": token})
    assert response.status_code == 302
    assert browser.get(MY_ORDER).status_code == 302  # signed out


def test_a_page_without_a_csrf_cookie_yet_is_not_kept(user):
    """The first page of a session sets the CSRF cookie: a page that sets one is not kept."""
    browser = Client()
    browser.force_login(user)
    _, from_cache = served(browser, MY_ORDER)
    assert not from_cache and "csrftoken" in browser.cookies


def test_an_order_with_minutes_left_is_kept_until_they_change(user):
    order = BookingFactory(user=user, expires_at=timezone.now() + timedelta(seconds=125.5))
    assert seconds_while_minutes_left_hold(order) in (4, 5)
    order.expires_at = timezone.now() + timedelta(seconds=0.5)
    assert seconds_while_minutes_left_hold(order) == 0  # not kept at all
    order.paid = True
    assert seconds_while_minutes_left_hold(order) > 60


def test_an_order_about_to_lapse_is_never_kept(user):
    order = BookingFactory(user=user, expires_at=timezone.now() + timedelta(seconds=0.5))
    browser = signed_in(user)
    served(browser, order.get_absolute_url())
    _, from_cache = served(browser, order.get_absolute_url())
    assert not from_cache


def test_my_order_is_kept_no_longer_than_its_first_hold(user):
    BookingFactory(user=user, expires_at=timezone.now() + timedelta(seconds=0.5))
    browser = signed_in(user)
    served(browser, MY_ORDER)
    _, from_cache = served(browser, MY_ORDER)
    assert not from_cache


def test_a_bearer_token_or_a_query_string_is_never_served_a_kept_page(user):
    browser = signed_in(user)
    kept(browser, MY_ORDER)
    _, from_cache = served(browser, MY_ORDER + "?utm_source=mail")
    assert not from_cache


def test_another_users_session_cookie_value_is_its_own_key(user):
    """A made-up session cookie is a miss (and a sign-in page), never someone's page."""
    kept(signed_in(user), MY_ORDER)
    stranger = Client()
    stranger.cookies["sessionid"] = "x" * 32
    assert stranger.get(MY_ORDER).status_code == 302
    assert UserFactory()  # the shop still works after


# Each write path makes stale what it changed, from the service (or, for users, the one hook)
# that wrote: orders.services.common.orders_changed, accounts.signals.user_changed.


def order_count(as_admin) -> int:
    """Manage Orders' count of every order (kept under the orders' version only)."""
    return int(as_admin.get("/api/bookings", {"limit": 1})["X-Total-Count"])


def test_an_order_placed_or_deleted_changes_the_counts_at_once(as_user, as_admin):
    part = PartFactory(minimum_order_quantity=1)
    assert order_count(as_admin) == 0
    placed = as_user.post(
        "/api/booking",
        {"partId": part.pk, "quantity": 1, "address": "1 Road", "phone": "+441130000000"},
        format="json",
    )
    assert placed.status_code == 201 and order_count(as_admin) == 1
    assert as_user.delete(f"/api/booking/{placed.json()['insertedId']}").status_code == 200
    assert order_count(as_admin) == 0


def test_an_approved_order_shows_at_once(user, as_admin):
    order = BookingFactory(user=user, paid_order=True)
    browser = signed_in(user)
    assert 'data-testid="order-state">Pending<' in kept(browser, order.get_absolute_url())
    assert (
        as_admin.put(f"/api/booking/{order.pk}", {"status": "approved"}, format="json").status_code
        == 200
    )
    page, from_cache = served(browser, order.get_absolute_url())
    assert 'data-testid="order-state">Shipped<' in page and not from_cache


def test_a_refunded_order_shows_at_once(user):
    order = BookingFactory(user=user, shipped=True)
    browser = signed_in(user)
    kept(browser, order.get_absolute_url())
    booking_refund(booking=order, outside_stripe=True)
    page, _ = served(browser, order.get_absolute_url())
    assert 'data-testid="order-state">Refunded<' in page


def test_an_address_corrected_in_django_admin_shows_at_once(user, staff_client):
    order = BookingFactory(user=user, address="1 Old Road")
    browser = signed_in(user)
    assert "1 Old Road" in kept(browser, order.get_absolute_url())
    change = f"/admin/orders/booking/{order.pk}/change/"
    fields = change_form_data(staff_client.get(change), address="2 New Road")
    assert staff_client.post(change, fields).status_code == 302
    page, _ = served(browser, order.get_absolute_url())
    assert "2 New Road" in page and "1 Old Road" not in page


def test_an_unpaid_order_of_a_deleted_part_shows_expired_at_once(user):
    part = PartFactory()
    order = BookingFactory(user=user, part=part)
    browser = signed_in(user)
    assert "Unpaid" in kept(browser, order.get_absolute_url())
    part_delete(part=part)
    page, _ = served(browser, order.get_absolute_url())
    assert 'data-testid="order-state">Expired<' in page


def test_a_payment_failure_noted_keeps_the_pages(user):
    """Stripe's reason for a declined card shows in Django admin only."""
    order = BookingFactory(user=user)
    browser = signed_in(user)
    kept(browser, order.get_absolute_url())
    booking_record_payment_failure(booking=order, message="Your card was declined.")
    _, from_cache = served(browser, order.get_absolute_url())
    assert from_cache


def test_a_password_changed_on_allauths_page_signs_the_other_sessions_out(user):
    browser = signed_in(user)
    kept(browser, MY_ORDER)
    elsewhere = signed_in(user)
    new = {"password1": "a whole new secret", "password2": "a whole new secret"}
    changed = elsewhere.post("/accounts/password/change/", {"oldpassword": TEST_PASSWORD, **new})
    assert changed.status_code == 302
    response = browser.get(MY_ORDER)
    assert response.status_code == 302 and response.url.startswith("/login")


def test_a_password_reset_signs_the_sessions_out(user):
    browser = signed_in(user)
    kept(browser, MY_ORDER)
    key = f"{user_pk_to_url_str(user)}-{default_token_generator.make_token(user)}"
    resetting = Client()
    form = resetting.get(f"/accounts/password/reset/key/{key}/", follow=True)
    new = {"password1": "a whole new secret", "password2": "a whole new secret"}
    assert resetting.post(form.redirect_chain[-1][0], new).status_code == 302
    response = browser.get(MY_ORDER)
    assert response.status_code == 302 and response.url.startswith("/login")


def test_a_password_set_in_django_admin_signs_the_sessions_out(user, staff_client):
    browser = signed_in(user)
    kept(browser, MY_ORDER)
    new = {"password1": "a whole new secret", "password2": "a whole new secret"}
    form = f"/admin/accounts/user/{user.pk}/password/"
    assert staff_client.post(form, {**new, "usable_password": "true"}).status_code == 302
    response = browser.get(MY_ORDER)
    assert response.status_code == 302 and response.url.startswith("/login")


def test_a_sign_in_that_upgrades_the_password_hash_signs_the_other_sessions_out(user, settings):
    """Django saves the password again under the current hasher, behind every service."""
    pbkdf2 = "django.contrib.auth.hashers.PBKDF2PasswordHasher"
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher", pbkdf2]
    user.password = PBKDF2PasswordHasher().encode(TEST_PASSWORD, "oldsalt", iterations=1)
    user.save()
    browser = signed_in(user)
    kept(browser, MY_ORDER)
    signing_in = {"login": user.email, "password": TEST_PASSWORD}
    assert Client().post("/login", signing_in).status_code == 302
    user.refresh_from_db()
    assert user.password.startswith("md5$")  # upgraded
    response = browser.get(MY_ORDER)
    assert response.status_code == 302 and response.url.startswith("/login")


@pytest.mark.parametrize("how", ["the All Users API", "make_admin"])
def test_an_account_made_admin_shows_the_admin_pages_at_once(user, as_admin, how):
    browser = signed_in(user)
    assert "Manage Orders" not in kept(browser, MY_ORDER)
    if how == "make_admin":
        call_command("make_admin", user.email, stdout=StringIO())
    else:
        assert as_admin.put(f"/api/user/admin/{user.email}").status_code == 200
    page, _ = served(browser, MY_ORDER)
    assert "Manage Orders" in page


def test_an_account_removed_through_the_all_users_api_is_signed_out(user, as_admin):
    browser = signed_in(user)
    kept(browser, MY_ORDER)
    assert as_admin.delete(f"/api/users/{user.email}").status_code == 200
    response = browser.get(MY_ORDER)
    assert response.status_code == 302 and response.url.startswith("/login")


def test_revoking_an_api_token_keeps_the_pages(user, other_user):
    """A revoked token changes no page: neither this person's nor anybody else's."""
    mine, theirs = signed_in(user), signed_in(other_user)
    kept(mine, MY_ORDER)
    kept(theirs, MY_ORDER)
    api = APIClient()
    credentials = {"email": user.email, "password": TEST_PASSWORD}
    signed_in_api = api.post("/api/token", credentials, format="json")
    refresh = signed_in_api.json()["refresh"]
    revoked = api.post("/api/token/revoke", {"refresh": refresh}, format="json")
    assert revoked.status_code == 200
    assert served(mine, MY_ORDER)[1] and served(theirs, MY_ORDER)[1]


# A change of who the person is that no version tells of: QuerySet.update() writes the row
# without Model.save() (no signal, no bump of "accounts"), as when the server that wrote could
# not reach Redis. The person's row is read live for every kept page served.


def changed_behind_the_caches(user, **fields) -> None:
    type(user).objects.filter(pk=user.pk).update(**fields)


@pytest.mark.parametrize("change", ["deactivated", "password changed"])
def test_a_change_no_version_told_of_signs_the_kept_pages_out(user, change):
    browser = signed_in(user)
    kept(browser, MY_ORDER)
    if change == "deactivated":
        changed_behind_the_caches(user, is_active=False)
    else:
        changed_behind_the_caches(user, password=make_password("a whole new secret"))
    response = browser.get(MY_ORDER)
    assert response.status_code == 302 and response.url.startswith("/login")


def test_a_role_taken_back_unannounced_ends_the_kept_order_page_of_another(user, admin_user):
    order = BookingFactory(user=user)
    browser = signed_in(admin_user)
    kept(browser, order.get_absolute_url())
    changed_behind_the_caches(admin_user, role=User.Role.USER)
    assert browser.get(order.get_absolute_url()).status_code == 404


def test_a_kept_page_costs_one_read_of_the_database(user, django_assert_num_queries):
    """The person's row and whether the session lives, in one indexed statement."""
    browser = signed_in(user)
    kept(browser, MY_ORDER)
    with django_assert_num_queries(1):
        assert served(browser, MY_ORDER)[1]
