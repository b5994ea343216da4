"""Page weight, gzip-compressed, from the built front end (static/dist) and the rendered pages:
no React on pages without an island, at most 80 KB of JavaScript on island pages (the cart and
checkout too), each keeping 15 KB of that free, at most 20 KB of CSS on any page, and react-toastify (code and styles) only once
a toast shows. (KB = 1,024 bytes.)"""

import pytest
from django.test import Client

from accounts.tests.factories import AdminFactory, UserFactory
from bench.lib.weight import REACT_MARKERS, STYLESHEET, file_facts, static_file, weigh
from catalog.tests.factories import PartFactory
from core.templatetags.islands import dist_url, manifest
from orders.tests.factories import BookingFactory
from reviews.tests.factories import ReviewFactory
from tests import stripe_fake

pytestmark = pytest.mark.django_db

KB = 1024
ISLAND_JS_MAX = 80 * KB
# Every island page keeps this much of its budget free for what the next features add.
ISLAND_JS_HEADROOM = 15 * KB
CSS_MAX = 20 * KB

# (who, path) of the pages that mount no React island.
PLAIN_PAGES = [
    ("visitor", "/"),
    ("visitor", "/allparts"),
    ("visitor", "/blogs"),
    ("visitor", "/myportfolio"),
    ("visitor", "/login"),
    ("visitor", "/signup"),
    ("visitor", "/no-such-page"),
    ("user", "/dashboard"),
    ("user", "/dashboard/review"),
    ("user", "/dashboard/payment/{order}"),  # card payments not configured: no form
    ("admin", "/dashboard/manageparts"),
    ("admin", "/dashboard/addparts"),
]
# (who, path, island) of the pages that mount one.
ISLAND_PAGES = [
    ("user", "/purchaseintent/{part}", "purchase-form"),
    ("user", "/dashboard/myorder", "my-orders"),
    ("user", "/dashboard/payment/{order}", "payment"),
    ("admin", "/dashboard/manageorders", "manage-orders"),
    ("admin", "/dashboard/users", "all-users"),
    ("admin", "/dashboard/overview", "overview"),
    ("user", "/cart", "cart"),
    ("user", "/checkout", "checkout"),
]


@pytest.fixture
def page(settings):
    """GET a page as a visitor, the shopper or an admin of a small shop: its HTML."""
    part = PartFactory()
    ReviewFactory()
    user, admin = UserFactory(), AdminFactory()
    order = BookingFactory(user=user, part=part)
    names = {"part": part.pk, "order": order.pk}
    in_cart = {"partId": part.pk, "quantity": part.minimum_order_quantity}

    def get(who: str, path: str, *, cards: bool = False) -> str:
        if cards:
            settings.STRIPE_SECRET_KEY = stripe_fake.SECRET_KEY
            settings.STRIPE_PUBLISHABLE_KEY = stripe_fake.PUBLISHABLE_KEY
        client = Client()
        if who != "visitor":
            client.force_login(user if who == "user" else admin)
        if who == "user":  # a line in the cart: /cart lists it, /checkout shows its form
            assert client.post("/api/cart", in_cart, "application/json").status_code == 200
        response = client.get(path.format(**names))
        assert response.status_code in (200, 404)
        return response.content.decode()

    return get


def test_the_site_script_every_page_loads_carries_no_react():
    site = manifest()["site"]
    files = [site["file"], *site["imports"]]
    for name in files:
        source = static_file(dist_url(name)).read_text()
        assert not [marker for marker in REACT_MARKERS if marker in source], name


def test_react_is_recognised_in_the_islands_build():
    """The markers find React where it is, so the "no React" checks can fail."""
    island = manifest()["my-orders"]
    files = [static_file(dist_url(name)) for name in [island["file"], *island["imports"]]]
    assert any(file_facts(path)[1] for path in files)


@pytest.mark.parametrize(("who", "path"), PLAIN_PAGES, ids=[p for _, p in PLAIN_PAGES])
def test_pages_without_an_island_load_no_react(page, who, path):
    html = page(who, path)
    assert "data-island" not in html
    weight = weigh(html)
    assert weight.js_files, "every page loads the site script"
    assert weight.react_gzip == 0, weight.js_files
    assert weight.css_gzip <= CSS_MAX


@pytest.mark.parametrize(
    ("who", "path", "island"), ISLAND_PAGES, ids=[i for _, _, i in ISLAND_PAGES]
)
def test_island_pages_keep_15_kb_of_their_80_kb_free(page, who, path, island):
    html = page(who, path, cards=island == "payment")
    assert f'data-island="{island}"' in html
    weight = weigh(html)
    assert weight.react_gzip > 0
    limit = ISLAND_JS_MAX - ISLAND_JS_HEADROOM
    assert weight.js_gzip <= limit, f"{weight.js_gzip / KB:.1f} KB: {weight.js_files}"
    assert weight.css_gzip <= CSS_MAX


TOASTIFY = "Toastify"  # react-toastify's class names, in its code and its stylesheet


def carries_toastify(url: str) -> bool:
    return TOASTIFY in static_file(url).read_text()


@pytest.mark.parametrize(
    ("who", "path", "island"), ISLAND_PAGES, ids=[i for _, _, i in ISLAND_PAGES]
)
def test_react_toastify_loads_with_the_first_toast_only(page, who, path, island):
    """Neither its code nor its styles come with a page: lib/toasts.jsx imports them when a
    toast shows (lib/toast-container.jsx)."""
    html = page(who, path, cards=island == "payment")
    weight = weigh(html)
    scripts = [dist_url(name) for name in manifest_files(island)]

    assert not [url for url in scripts if carries_toastify(url)]
    assert weight.react_gzip > 0  # the island's files are the ones looked at
    assert not [url for url in STYLESHEET.findall(html) if carries_toastify(url)]


def manifest_files(entry: str) -> list[str]:
    return [manifest()[entry]["file"], *manifest()[entry]["imports"]]


def test_the_toasts_chunk_carries_react_toastify_and_its_styles():
    """What the test above looks for is where the first toast loads it from."""
    chunk = static_file(dist_url(manifest()["toast-container"]["file"])).read_text()
    assert TOASTIFY in chunk
    assert ".Toastify__toast-container{" in chunk  # the stylesheet, as text


def test_a_page_showing_a_toast_stays_within_80_kb(client, settings):
    """Django messages show through the toasts island, on top of the page's own island."""
    user = UserFactory()
    client.force_login(user)
    response = client.post(
        "/dashboard/review", {"name": "Rider", "review": "Fits well.", "ratings": "5"}, follow=True
    )
    html = response.content.decode()
    assert 'data-island="toasts"' in html
    assert weigh(html).js_gzip <= ISLAND_JS_MAX
