"""The frame of every page: focus rings, the navbar's items, the phone menus, the dashboard's
sidebar (issue 13, "Polish found on the way")."""

import pytest
from playwright.sync_api import expect

from accounts.tests.factories import AdminFactory, UserFactory
from tests.e2e.conftest import shot, sign_in

# The element Tab reached, and whether it shows a ring: an outline of 2 px or more, or a
# box-shadow (daisyUI's inputs draw their ring that way).
FOCUS_RING = """() => {
  const el = document.activeElement;
  const style = getComputedStyle(el);
  const outline = style.outlineStyle !== "none" && parseFloat(style.outlineWidth) >= 2;
  const label = (el.getAttribute("aria-label") || el.textContent || el.name || "").trim();
  return {
    what: `${el.tagName.toLowerCase()} "${label.slice(0, 40)}"`,
    ring: outline || style.boxShadow !== "none",
    body: el === document.body,
  };
}"""


def focus_walk(site, steps: int = 40) -> list[dict]:
    seen = []
    for _ in range(steps):
        site.keyboard.press("Tab")
        seen.append(site.evaluate(FOCUS_RING))
    return [s for s in seen if not s["body"]]


@pytest.mark.parametrize("path", ["/", "/allparts", "/login", "/signup"])
def test_every_control_tab_reaches_shows_a_focus_ring(site, path):
    site.goto(path)
    reached = focus_walk(site)
    assert len(reached) > 5, reached
    assert [s["what"] for s in reached if not s["ring"]] == []


def test_the_dashboard_shows_focus_rings_too(site):
    sign_in(site, AdminFactory())
    site.goto("/dashboard/manageparts")
    reached = focus_walk(site, steps=30)
    assert [s["what"] for s in reached if not s["ring"]] == []


def boxes(locator) -> list[dict]:
    return [item.bounding_box() for item in locator.all()]


def test_the_navbar_items_share_one_size(site):
    sign_in(site, UserFactory(name="Rosa Rider"))
    site.set_viewport_size({"width": 1366, "height": 900})
    site.goto("/")
    items = site.get_by_role("navigation", name="Main").locator("li > :is(a, button)")
    expect(items).to_have_count(7)  # Home … Saved, Dashboard, and the sign-out button
    sizes = items.evaluate_all(
        "els => els.map(e => [Math.round(e.getBoundingClientRect().height),"
        " getComputedStyle(e).fontSize])"
    )
    assert len(set(map(tuple, sizes))) == 1, sizes
    tops = {round(box["y"]) for box in boxes(items)}
    assert len(tops) == 1, tops  # one row


def sidebar_and_frame(site) -> dict:
    return site.evaluate(
        """() => {
          const nav = document.querySelector('nav[aria-label="Dashboard"]').getBoundingClientRect();
          const header = document.querySelector("header").getBoundingClientRect();
          const footer = document.querySelector("footer").getBoundingClientRect();
          return {top: nav.top, bottom: nav.bottom, header: header.bottom,
                  footer: footer.top, window: innerHeight};
        }"""
    )


def test_the_dashboard_sidebar_runs_the_pages_full_height(site):
    site.set_viewport_size({"width": 1366, "height": 900})
    sign_in(site, UserFactory())
    site.goto("/dashboard/profile")  # a short page
    frame = sidebar_and_frame(site)
    assert abs(frame["top"] - frame["header"]) <= 2, frame
    assert frame["bottom"] >= min(frame["footer"], frame["window"]) - 2, frame

    site.set_viewport_size({"width": 1366, "height": 500})  # the page is now longer
    site.goto("/dashboard/profile")
    site.mouse.wheel(0, 100)  # the footer still out of sight
    site.wait_for_function("() => scrollY > 0")
    frame = sidebar_and_frame(site)
    assert abs(frame["top"] - frame["header"]) <= 2, frame  # never under the navbar
    assert frame["bottom"] >= frame["window"] - 2, frame
    site.evaluate("() => scrollTo(0, document.body.scrollHeight)")
    frame = sidebar_and_frame(site)
    assert abs(frame["bottom"] - frame["footer"]) <= 2, frame  # down to the footer
    shot(site, "dashboard-sidebar-1366")


def header_controls(site) -> list[str]:
    """The accessible names of the header's own buttons and links (menus closed)."""
    header = site.locator("header")
    return [
        control.get_attribute("aria-label") or control.inner_text().strip()
        for control in header.locator(":is(summary, label, a.btn)").all()
        if control.is_visible()
    ]


def test_phone_header_buttons_each_name_what_they_do(site):
    site.set_viewport_size({"width": 390, "height": 844})
    sign_in(site, UserFactory())
    site.goto("/allparts")
    names = header_controls(site)
    assert "Open the menu" in names and "Open the dashboard menu" in names, names
    assert len(names) == len(set(names)), names

    site.get_by_role("link", name="Open the dashboard menu").click()
    site.wait_for_url("**/dashboard#menu")
    menu = site.get_by_role("navigation", name="Dashboard")
    expect(menu.get_by_role("link", name="My Order")).to_be_in_viewport()

    site.keyboard.press("Escape")
    expect(menu.get_by_role("link", name="My Order")).not_to_be_in_viewport()
    names = header_controls(site)
    assert "Toggle the dashboard menu" in names, names
    assert len(names) == len(set(names)), names
    shot(site, "dashboard-menu-390")
