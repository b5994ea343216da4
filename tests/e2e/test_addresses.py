"""The address book in Chromium: My Profile → Addresses, add one, see it marked Default, add a
second and make it the default, delete one after "Are you sure?"; axe finds nothing serious at a
desktop and a phone width."""

from playwright.sync_api import expect

from accounts.addresses import address_create
from accounts.models import Address
from accounts.tests.factories import UserFactory
from tests.e2e.conftest import findings, shot, sign_in


def fill(site, **fields) -> None:
    for label, value in fields.items():
        site.get_by_label(label, exact=True).fill(value)


def test_add_make_default_and_delete(site):
    user = UserFactory()
    sign_in(site, user)
    site.goto("/dashboard/profile")
    site.get_by_role("link", name="Addresses").click()
    expect(site).to_have_url(f"{site.base_url}/dashboard/addresses")

    fill(site, **{"Full name": "Jane Rider", "Address line 1": "1 Main St", "City": "Springfield"})
    fill(site, **{"State / region": "IL", "Postcode": "6270", "Phone": "+1 217 555 0100"})
    site.get_by_label("Country").select_option(label="United States of America")
    site.get_by_role("button", name="Add address").click()
    expect(site.get_by_text("Provide a valid US ZIP code")).to_be_visible()
    fill(site, Postcode="62701")
    site.get_by_role("button", name="Add address").click()
    expect(site.get_by_text("Address added")).to_be_visible()
    expect(site.locator("[data-address]").first).to_contain_text("Default")

    fill(site, **{"Full name": "Ola Nordmann", "Address line 1": "Storgata 1", "City": "Oslo"})
    fill(site, Postcode="0155", Phone="+4722000000")
    site.get_by_label("Country").select_option("NO")
    site.get_by_role("button", name="Add address").click()
    expect(site.locator("[data-address]")).to_have_count(2)
    site.get_by_role(
        "button", name="Make the address of Ola Nordmann, Storgata 1 the default"
    ).click()
    expect(site.get_by_text("Default address changed")).to_be_visible()
    expect(site.locator("[data-address]").first).to_contain_text("Ola Nordmann")
    shot(site, "addresses")

    site.once("dialog", lambda dialog: dialog.accept())
    site.get_by_role("button", name="Delete the address of Ola Nordmann, Storgata 1").click()
    expect(site.get_by_text("Address deleted")).to_be_visible()
    expect(site.locator("[data-address]")).to_have_count(1)
    assert list(Address.objects.filter(owner=user).values_list("full_name", "is_default")) == [
        ("Jane Rider", True)
    ]


def test_the_pages_are_accessible(axe_page):
    user = UserFactory()
    address = address_create(
        owner=user,
        full_name="Jane Rider",
        line1="1 Main St",
        city="Springfield",
        postcode="62701",
        country="US",
        phone="+12175550100",
    )
    sign_in(axe_page, user)
    problems = [
        line
        for path in ("/dashboard/addresses", f"/dashboard/addresses/{address.pk}/edit")
        for width in (1366, 390)
        for line in findings(axe_page, path, width)
    ]
    assert problems == []
