"""The purchase page /purchaseintent/<id>: part details and the purchase-form island's props."""

import re
from decimal import Decimal

import pytest

from accounts.tests.factories import UserFactory
from catalog.tests.factories import PartFactory
from core.tests.islands import island_props, island_script, page_text

pytestmark = pytest.mark.django_db

NOT_FOUND = "WE ARE SORRY, THE PAGE YOU REQUESTED WAS NOT FOUND"


@pytest.fixture
def part():
    return PartFactory(
        name="Sintered brake pads",
        description="Pads for the front caliper.",
        price=Decimal("12.50"),
        minimum_order_quantity=4,
        available_quantity=30,
    )


@pytest.fixture
def signed_in(client, user):
    client.force_login(user)
    return client


def test_visitors_go_to_login_remembering_the_page(client, part):
    response = client.get(f"/purchaseintent/{part.pk}")
    assert response.status_code == 302
    assert response["Location"] == f"/login?next=/purchaseintent/{part.pk}"


@pytest.mark.parametrize("pk", ["999999", str(2**63), "9" * 30])
def test_an_unknown_part_shows_the_404_page(signed_in, pk):
    response = signed_in.get(f"/purchaseintent/{pk}")
    assert response.status_code == 404
    assert NOT_FOUND in page_text(response)


def test_the_page_shows_the_parts_details(signed_in, part):
    response = signed_in.get(f"/purchaseintent/{part.pk}/")
    assert response.status_code == 200
    text = page_text(response)
    for shown in (
        "Sintered brake pads",
        "Pads for the front caliper.",
        "Price per unit: $12.50",
        "Minimum Order Quantity: 4",
        "Available Quantity: 30",
    ):
        assert shown in text
    image = (
        rf'<img src="{re.escape(part.img)}"\s+alt="Sintered brake pads" width="\d+" height="\d+"'
    )
    assert re.search(image, response.content.decode())


def test_a_part_without_an_image_shows_the_placeholder(signed_in):
    part = PartFactory(img="")
    response = signed_in.get(f"/purchaseintent/{part.pk}")
    assert 'src="/static/img/parts/placeholder.svg"' in response.content.decode()


def test_the_form_island_gets_the_part_as_the_api_answers_it_and_the_user(
    signed_in, anon, user, part
):
    response = signed_in.get(f"/purchaseintent/{part.pk}")
    props = island_props(response, "purchase-form")
    assert props == {
        "part": anon.get(f"/api/allparts/{part.pk}").json(),
        "user": {"name": user.name, "email": user.email},
    }
    assert props["part"]["price"] == 12.5
    assert island_script("purchase-form") in response.content.decode()


def test_a_user_without_a_display_name_is_shown_by_email(client, part):
    nameless = UserFactory(name="")
    client.force_login(nameless)
    props = island_props(client.get(f"/purchaseintent/{part.pk}"), "purchase-form")
    assert props["user"] == {"name": nameless.email, "email": nameless.email}


def test_text_in_props_cannot_break_out_of_the_script(signed_in):
    part = PartFactory(name="</script><script>alert(1)</script>")
    response = signed_in.get(f"/purchaseintent/{part.pk}")
    assert "<script>alert(1)" not in response.content.decode()
    assert island_props(response, "purchase-form")["part"]["name"] == part.name


def test_with_card_payments_off_the_form_says_so_before_ordering(client, user, settings):
    settings.STRIPE_SECRET_KEY = settings.STRIPE_PUBLISHABLE_KEY = ""
    part = PartFactory()
    client.force_login(user)

    html = client.get(f"/purchaseintent/{part.pk}").content.decode()

    assert "Card payments are not configured on this shop." in html
    assert html.index("Card payments are not configured") < html.index(
        'data-island="purchase-form"'
    )


def test_with_card_payments_on_nothing_is_said(client, user, settings):
    settings.STRIPE_SECRET_KEY, settings.STRIPE_PUBLISHABLE_KEY = "sk_test_x", "pk_test_x"
    part = PartFactory()
    client.force_login(user)

    html = client.get(f"/purchaseintent/{part.pk}").content.decode()

    assert "Card payments are not configured" not in html
