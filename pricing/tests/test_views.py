"""The owner's Shipping (/dashboard/shipping: methods with their bands, tax rates) and Vouchers
(/dashboard/vouchers) pages: who may open them, what they show, and their forms."""

import re
from datetime import UTC, datetime
from decimal import Decimal
from html import unescape

import pytest

from core.page_guards import ADMINS_ONLY
from core.tests.pages import buttons, field_error, parse, toasts
from pricing import services
from pricing.models import CODE_TAKEN, RATE_TAKEN, ShippingMethod, TaxRate, Voucher
from pricing.serializers import GRAMS_RULE, MONEY_RULE, NAME_REQUIRED, RATE_RULE, USES_RULE
from pricing.services import (
    BANDS_REPEAT,
    DEFAULT_ACTIVE,
    DEFAULT_DELETE,
    ONE_DEFAULT,
    PERCENT_RANGE,
)
from pricing.tests import factories
from pricing.views import (
    METHOD_ADDED,
    METHOD_DELETED,
    METHOD_MADE_DEFAULT,
    METHOD_SWITCHED_OFF,
    METHOD_SWITCHED_ON,
    METHOD_UPDATED,
    RATE_ADDED,
    RATE_DELETED,
    RATE_UPDATED,
    VOUCHER_ADDED,
    VOUCHER_SWITCHED_OFF,
    VOUCHER_SWITCHED_ON,
    VOUCHER_UPDATED,
)

pytestmark = pytest.mark.django_db

SHIPPING = "/dashboard/shipping"
VOUCHERS = "/dashboard/vouchers"


@pytest.fixture
def owner(client, admin_user):
    client.force_login(admin_user)
    return client


def text(response) -> str:
    """What a person reads: the page's text without tags, spaces collapsed."""
    body = re.sub(r"<(script|style)\b.*?</\1>", " ", response.content.decode(), flags=re.S)
    return " ".join(unescape(re.sub(r"<[^>]+>", " ", body)).split())


def form_error(response) -> str:
    match = re.search(
        r'<p class="text-error text-sm" role="alert">(.*?)</p>', response.content.decode()
    )
    return unescape(match.group(1)) if match else ""


def method_form(**fields) -> dict:
    form = {
        "name": "Express",
        "countries": ["US", "CA"],
        "bandGrams": ["2000", "10000", "", ""],
        "bandPrice": ["6.95", "12.95", "", ""],
        "freeOver": "100",
        "eta": "1–2 business days",
        "active": "true",
    }
    return {k: v for k, v in {**form, **fields}.items() if v is not None}


# --- Who may open them -----------------------------------------------------------------------


@pytest.mark.parametrize("url", [SHIPPING, VOUCHERS])
def test_the_pages_are_the_owners(owner, url):
    assert owner.get(url).status_code == 200


@pytest.mark.parametrize("url", [SHIPPING, VOUCHERS])
def test_a_visitor_goes_to_sign_in(client, url):
    response = client.get(url)

    assert (response.status_code, response["Location"]) == (302, f"/login?next={url}")


@pytest.mark.parametrize("url", [SHIPPING, VOUCHERS])
def test_a_shopper_is_signed_out_and_told(client, user, url):
    client.force_login(user)

    response = client.post(url, method_form(), follow=True)

    assert response.redirect_chain == [("/login", 302)]
    assert ADMINS_ONLY in text(response)
    assert "_auth_user_id" not in client.session
    assert not ShippingMethod.objects.exists() and not Voucher.objects.exists()


def test_the_admin_menu_links_both_pages(owner):
    html = owner.get("/dashboard/overview").content.decode()

    assert re.search(r'<a href="/dashboard/shipping"[^>]*>Shipping</a>', html)
    assert re.search(r'<a href="/dashboard/vouchers"[^>]*>Vouchers</a>', html)


def current_menu_item(html: str) -> list[str]:
    return re.findall(r'class="menu-active" aria-current="page">([^<]+)</a>', html)


def test_an_edit_page_shows_its_lists_menu_item_as_the_current_one(owner):
    method = factories.method("Standard")
    rate = factories.tax_rate("DE", "19")
    voucher = factories.voucher("RIDE10")

    for url, item in [
        (f"/dashboard/shipping/methods/{method.pk}/edit", "Shipping"),
        (f"/dashboard/shipping/rates/{rate.pk}/edit", "Shipping"),
        (f"/dashboard/vouchers/{voucher.pk}/edit", "Vouchers"),
        ("/dashboard/vouchers", "Vouchers"),
    ]:
        assert current_menu_item(owner.get(url).content.decode()) == [item], url


def test_a_shoppers_menu_has_neither(client, user):
    client.force_login(user)
    html = client.get("/dashboard/profile").content.decode()

    assert "/dashboard/shipping" not in html and "/dashboard/vouchers" not in html


# --- Shipping methods ------------------------------------------------------------------------


def test_methods_are_listed_as_a_person_reads_them(owner):
    factories.method("Standard", eta="3–5 business days")
    factories.method(
        "Express",
        countries=["US", "CA"],
        bands=[(2000, "6.95"), (10000, "1249")],
        free_over=Decimal("100"),
        eta="1–2 business days",
    )

    shown = text(owner.get(SHIPPING))

    assert "Standard Default Delivers to: Everywhere Price: Free at any weight" in shown
    assert (
        "Express Delivers to: Canada, United States of America "
        "Price: up to 2,000 g: $6.95; up to 10,000 g: $1,249.00 Free over $100.00 "
        "Delivery time: 1–2 business days"
    ) in shown


def test_adding_a_method_with_two_bands_says_so(owner):
    response = owner.post(SHIPPING, method_form())

    assert (response.status_code, response["Location"]) == (302, SHIPPING)
    method = ShippingMethod.objects.get()
    assert [(b.up_to_grams, b.price) for b in method.bands.all()] == [
        (2000, Decimal("6.95")),
        (10000, Decimal("12.95")),
    ]
    assert sorted(c.code for c in method.countries) == ["CA", "US"]
    assert (method.free_over, method.eta, method.active) == (
        Decimal("100"),
        "1–2 business days",
        True,
    )
    assert method.is_default  # the first method is the default
    page = owner.get(SHIPPING)
    assert toasts(page) == [METHOD_ADDED] == ["Shipping method added"]


def test_the_method_forms_messages_show_and_keep_what_was_typed(owner):
    response = owner.post(
        SHIPPING,
        method_form(name="", bandGrams=["0", "500"], bandPrice=["6.95", "abc"], freeOver="-1"),
    )

    assert response.status_code == 200
    assert field_error(response, "name") == NAME_REQUIRED == "Name is required"
    assert field_error(response, "bands") == f"Band 1: {GRAMS_RULE} Band 2: {MONEY_RULE}"
    assert field_error(response, "freeOver") == MONEY_RULE
    assert parse(response).fields["eta"]["value"] == "1–2 business days"
    assert not ShippingMethod.objects.exists()


def test_a_band_weight_twice_is_the_services_refusal(owner):
    response = owner.post(SHIPPING, method_form(bandGrams=["2000", "2000"], bandPrice=["1", "2"]))

    assert field_error(response, "bands") == BANDS_REPEAT.format(grams=2000)
    assert "2,000 g is there twice" in field_error(response, "bands")


def test_editing_a_method_shows_it_and_saves_the_change(owner):
    method = factories.method("Express", bands=[(2000, "6.95")])
    url = f"{SHIPPING}/methods/{method.pk}/edit"

    page = owner.get(url)
    assert parse(page).fields["name"]["value"] == "Express"
    assert 'name="bandGrams" value="2000"' in page.content.decode()
    assert "Save method" in buttons(page)

    response = owner.post(url, method_form(bandGrams=["5000", ""], bandPrice=["9.50", ""]))

    assert (response.status_code, response["Location"]) == (302, SHIPPING)
    assert [(b.up_to_grams, b.price) for b in method.bands.all()] == [(5000, Decimal("9.50"))]
    assert toasts(owner.get(SHIPPING)) == [METHOD_UPDATED]


def test_switching_the_default_off_in_the_form_is_refused(owner):
    method = factories.method("Standard")

    response = owner.post(
        f"{SHIPPING}/methods/{method.pk}/edit", method_form(active=None, isDefault="true")
    )

    assert field_error(response, "active") == DEFAULT_ACTIVE
    method.refresh_from_db()
    assert method.active


def test_make_default_moves_the_mark(owner):
    standard = factories.method("Standard")
    express = factories.method("Express", bands=[(2000, "14.99")])

    response = owner.post(f"{SHIPPING}/methods/{express.pk}/default", follow=True)

    assert toasts(response) == [METHOD_MADE_DEFAULT]
    standard.refresh_from_db(), express.refresh_from_db()
    assert (standard.is_default, express.is_default) == (False, True)
    assert [(b.up_to_grams, b.price) for b in express.bands.all()] == [(2000, Decimal("14.99"))]


def test_switch_off_and_on(owner):
    factories.method("Standard")
    express = factories.method("Express")
    url = f"{SHIPPING}/methods/{express.pk}/switch"

    assert toasts(owner.post(url, {"active": "false"}, follow=True)) == [METHOD_SWITCHED_OFF]
    express.refresh_from_db()
    assert not express.active
    page = owner.get(SHIPPING)
    assert "Express Off" in text(page)
    assert "Make default" not in buttons(page)  # the default is always on

    assert toasts(owner.post(url, {"active": "true"}, follow=True)) == [METHOD_SWITCHED_ON]
    express.refresh_from_db()
    assert express.active


def test_the_default_cannot_be_switched_off(owner):
    standard = factories.method("Standard")

    response = owner.post(f"{SHIPPING}/methods/{standard.pk}/switch", follow=True)

    assert toasts(response) == [DEFAULT_ACTIVE]
    standard.refresh_from_db()
    assert standard.active


def test_delete_a_method_or_be_told_why_not(owner):
    standard = factories.method("Standard")
    express = factories.method("Express")

    refused = owner.post(f"{SHIPPING}/methods/{standard.pk}/delete", follow=True)
    assert toasts(refused) == [DEFAULT_DELETE]

    deleted = owner.post(f"{SHIPPING}/methods/{express.pk}/delete", follow=True)
    assert toasts(deleted) == [METHOD_DELETED]
    assert list(ShippingMethod.objects.all()) == [standard]


@pytest.mark.parametrize("action", ["default", "switch", "delete"])
def test_method_actions_take_post_only(owner, action):
    method = factories.method("Standard")

    assert owner.get(f"{SHIPPING}/methods/{method.pk}/{action}").status_code == 405


def test_an_unknown_method_is_not_found(owner):
    assert owner.get(f"{SHIPPING}/methods/999/edit").status_code == 404


# --- Tax rates -------------------------------------------------------------------------------


def test_rates_are_listed(owner):
    factories.tax_rate("DE", "19")
    factories.tax_rate("US", "7.25", region="CA", name="Sales tax")

    shown = text(owner.get(SHIPPING))

    assert "VAT 19% Germany" in shown
    assert "Sales tax 7.25% United States of America, CA" in shown


def test_adding_a_rate_says_so(owner):
    response = owner.post(
        f"{SHIPPING}/rates", {"country": "DE", "region": "", "rate_name": "VAT", "rate": "19"}
    )

    assert (response.status_code, response["Location"]) == (302, SHIPPING)
    rate = TaxRate.objects.get()
    assert (rate.country.code, rate.region, rate.name, rate.rate) == ("DE", "", "VAT", 19)
    assert toasts(owner.get(SHIPPING)) == [RATE_ADDED] == ["Tax rate added"]


def test_the_rate_forms_messages(owner):
    response = owner.post(f"{SHIPPING}/rates", {"country": "", "rate_name": "", "rate": "101"})

    assert response.status_code == 200
    assert (
        field_error(response, "country")
        == "Give a country as its ISO 3166-1 code, such as US or DE"
    )
    assert field_error(response, "rate_name") == NAME_REQUIRED
    assert field_error(response, "rate") == RATE_RULE
    assert not TaxRate.objects.exists()


def test_a_second_rate_for_one_place_is_refused(owner):
    factories.tax_rate("DE", "19")

    response = owner.post(f"{SHIPPING}/rates", {"country": "DE", "rate_name": "VAT", "rate": "7"})

    assert field_error(response, "region") == RATE_TAKEN
    assert TaxRate.objects.count() == 1


def test_editing_and_deleting_a_rate(owner):
    rate = factories.tax_rate("DE", "19")
    url = f"{SHIPPING}/rates/{rate.pk}/edit"
    assert parse(owner.get(url)).fields["rate_name"]["value"] == "VAT"

    response = owner.post(url, {"country": "DE", "rate_name": "MwSt", "rate": "7"}, follow=True)

    assert toasts(response) == [RATE_UPDATED]
    rate.refresh_from_db()
    assert (rate.name, rate.rate) == ("MwSt", Decimal("7"))
    deleted = owner.post(f"{SHIPPING}/rates/{rate.pk}/delete", follow=True)
    assert toasts(deleted) == [RATE_DELETED]
    assert not TaxRate.objects.exists()


# --- Vouchers --------------------------------------------------------------------------------

VOUCHER_FORM = {
    "code": "ride10",
    "kind": "percent",
    "value": "10",
    "minSubtotal": "50",
    "startsAt": "2026-12-01T00:00",
    "endsAt": "2027-01-01T00:00",
    "usageLimit": "100",
    "oncePerCustomer": "true",
    "active": "true",
}


def test_vouchers_are_listed_as_a_person_reads_them(owner):
    ride = factories.voucher("RIDE10", usage_limit=100, once_per_customer=True)
    factories.voucher("FIVE", kind="fixed", value="5", min_subtotal=Decimal("20"))
    factories.voucher("SHIPFREE", kind="shipping", value="0", active=False)
    for order_id in (1, 2, 3):
        services.voucher_use(
            voucher_id=ride.pk, user=None, email=f"r{order_id}@example.com",
            order_id=order_id, subtotal=Decimal("10"),
        )  # fmt: skip

    shown = text(owner.get(VOUCHERS))

    assert "FIVE: $5.00 off Minimum: $20.00 Uses: 0 Edit" in shown
    assert "RIDE10: 10% off Uses: 3 of 100 Once per customer" in shown
    assert "SHIPFREE: Free shipping Off Uses: 0" in shown


def test_creating_a_voucher_says_so(owner):
    response = owner.post(VOUCHERS, VOUCHER_FORM)

    assert (response.status_code, response["Location"]) == (302, VOUCHERS)
    voucher = Voucher.objects.get()
    assert (voucher.code, voucher.kind, voucher.value, voucher.min_subtotal) == (
        "RIDE10",
        "percent",
        Decimal("10"),
        Decimal("50"),
    )
    assert voucher.starts_at == datetime(2026, 12, 1, tzinfo=UTC)
    assert (voucher.usage_limit, voucher.once_per_customer, voucher.active) == (100, True, True)
    page = owner.get(VOUCHERS)
    assert toasts(page) == [VOUCHER_ADDED] == ["Voucher created"]
    assert "RIDE10: 10% off Minimum: $50.00 From Dec 1, 2026 00:00" in text(page)


def test_the_voucher_forms_messages_keep_what_was_typed(owner):
    form = {**VOUCHER_FORM, "code": "no", "value": "150", "usageLimit": "0", "endsAt": "soon"}

    response = owner.post(VOUCHERS, form)

    assert response.status_code == 200
    assert field_error(response, "code") == "A code is 3–32 letters, digits or dashes."
    assert field_error(response, "usageLimit") == USES_RULE
    assert field_error(response, "endsAt").startswith("Give a date and time")
    assert parse(response).fields["code"]["value"] == "no"
    assert not Voucher.objects.exists()


def test_the_services_refusals_show_at_their_fields(owner):
    factories.voucher("RIDE10")

    taken = owner.post(VOUCHERS, VOUCHER_FORM)
    too_much = owner.post(VOUCHERS, {**VOUCHER_FORM, "code": "BIG", "value": "150"})

    assert field_error(taken, "code") == CODE_TAKEN
    assert field_error(too_much, "value") == PERCENT_RANGE
    assert Voucher.objects.count() == 1


def test_editing_a_voucher(owner):
    voucher = factories.voucher("RIDE10", starts_at=datetime(2026, 12, 1, 8, 30, tzinfo=UTC))
    url = f"{VOUCHERS}/{voucher.pk}/edit"
    page = owner.get(url)
    assert parse(page).fields["startsAt"]["value"] == "2026-12-01T08:30"
    assert "Save voucher" in buttons(page)

    response = owner.post(url, {**VOUCHER_FORM, "kind": "fixed", "value": "5"}, follow=True)

    assert toasts(response) == [VOUCHER_UPDATED]
    voucher.refresh_from_db()
    assert (voucher.kind, voucher.value) == ("fixed", Decimal("5"))


def test_switch_a_voucher_off_and_on(owner):
    voucher = factories.voucher("RIDE10", usage_limit=5)
    url = f"{VOUCHERS}/{voucher.pk}/switch"

    off = owner.post(url, {"active": "false"}, follow=True)
    assert toasts(off) == [VOUCHER_SWITCHED_OFF]
    assert "Switch on" in buttons(off)
    voucher.refresh_from_db()
    assert (voucher.active, voucher.usage_limit) == (False, 5)

    on = owner.post(url, {"active": "true"}, follow=True)
    assert toasts(on) == [VOUCHER_SWITCHED_ON]
    voucher.refresh_from_db()
    assert voucher.active


def test_the_switch_takes_post_only(owner):
    voucher = factories.voucher("RIDE10")

    assert owner.get(f"{VOUCHERS}/{voucher.pk}/switch").status_code == 405


def test_the_default_stays_the_default_until_another_takes_over(owner):
    standard = factories.method("Standard")
    factories.method("Express")

    response = owner.post(f"{SHIPPING}/methods/{standard.pk}/edit", method_form(name="Standard"))

    assert field_error(response, "isDefault") == ONE_DEFAULT
    standard.refresh_from_db()
    assert (standard.is_default, list(standard.bands.all())) == (True, [])
