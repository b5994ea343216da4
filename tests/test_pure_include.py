"""{% pure_include %}: a kept navbar or sidebar is a function of the values named in the tag,
so each person sees their own, and nothing else of the page's context reaches it."""

import pytest
from django.template import Context, Template, TemplateSyntaxError
from django.test import Client

from accounts.tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def test_two_people_on_the_same_page_each_see_their_own_name_and_menu(client):
    shopper = UserFactory(name="Ada Shopper")
    owner = UserFactory(name="Bo Owner", role="admin")
    client.force_login(shopper)
    other = Client()
    other.force_login(owner)

    for _ in range(2):  # the second time from what was kept
        mine, theirs = client.get("/dashboard/myorder"), other.get("/dashboard/myorder")
        assert f"{shopper.get_short_name()} (Sign Out)" in mine.content.decode()
        assert f"{owner.get_short_name()} (Sign Out)" not in mine.content.decode()
        assert "Manage Orders" not in mine.content.decode()
        assert f"{owner.get_short_name()} (Sign Out)" in theirs.content.decode()
        assert "Manage Orders" in theirs.content.decode()


def test_a_visitor_after_a_signed_in_person_sees_no_name(client):
    shopper = UserFactory(name="Ada Shopper")
    client.force_login(shopper)
    assert "(Sign Out)" in client.get("/blogs").content.decode()

    html = Client().get("/blogs").content.decode()
    assert "(Sign Out)" not in html
    assert 'href="/login"' in html


def test_it_sees_only_the_values_it_is_given():
    page = Template('{% load pure_include %}{% pure_include "core/test_pure.html" a=x %}')
    with pytest.raises(TypeError):  # objects are refused: their rendering could differ
        page.render(Context({"x": object()}))
    with pytest.raises(TemplateSyntaxError):
        Template('{% load pure_include %}{% pure_include "core/test_pure.html" x %}')
