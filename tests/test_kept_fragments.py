"""The layout's fragments kept in this process (base.html's navbar and footer, the dashboard's
sidebar: `{% cache … using="local" %}` around an `{% include … only %}`): each is a function of
the values named in its key, so every person sees their own, whoever was served before."""

import pytest
from django.test import Client

from accounts.tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def test_two_people_on_the_same_page_each_see_their_own_name_and_menu():
    shopper = UserFactory(name="Ada Shopper")
    owner = UserFactory(name="Bo Owner", role="admin")
    mine, theirs = Client(), Client()
    mine.force_login(shopper)
    theirs.force_login(owner)

    for _ in range(2):  # the second time from what was kept
        page = mine.get("/dashboard/profile").content.decode()
        other = theirs.get("/dashboard/profile").content.decode()
        assert "Ada Shopper (Sign Out)" in page and "Bo Owner (Sign Out)" not in page
        assert "Manage Orders" not in page and "My Order" in page
        assert "Bo Owner (Sign Out)" in other and "Ada Shopper (Sign Out)" not in other
        assert "Manage Orders" in other


def test_a_visitor_after_a_signed_in_person_sees_no_name():
    shopper = Client()
    shopper.force_login(UserFactory(name="Ada Shopper"))
    assert "(Sign Out)" in shopper.get("/blogs").content.decode()

    html = Client().get("/blogs").content.decode()
    assert "(Sign Out)" not in html
    assert 'href="/login"' in html


def test_the_kept_navbar_and_footer_mark_the_page_they_are_on():
    """Rendered for a visitor, then for a signed-in shopper (never a kept whole page): the
    fragments kept for one page are not another's."""
    shopper = Client()
    shopper.force_login(UserFactory())
    for browser in (Client(), shopper, shopper):
        blogs = browser.get("/blogs").content.decode()
        privacy = browser.get("/privacy").content.decode()
        assert 'href="/blogs" aria-current="page"' in blogs
        assert 'aria-current="page"' not in blogs.split("<footer")[1]
        assert 'href="/privacy" class="link link-hover" aria-current="page"' in privacy
        assert 'href="/blogs" aria-current' not in privacy
