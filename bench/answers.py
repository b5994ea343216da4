"""Every page and API answer of a seeded shop, normalised, in one folder per run: run it on two
versions of the code (each in its own checkout, on the same data) and diff the folders.

    python -m bench.answers OUT [--database-url URL] [--redis-url URL]

It makes a fresh PostgreSQL database (default shop_answers), migrates it, collects the static
files, seeds the demo data and bench.lib.data's catalog and orders, then asks each path as a
visitor, the demo shopper and the demo admin (pages with a session and a CSRF cookie, the API
with a bearer token), twice (rendered, then as any cache keeps it), through the whole
middleware stack with DEBUG off. Each answer is written as its status, its headers and its
body with what differs from run to run masked (CSRF tokens and cookies, CSP nonces, session
and token values, times, the hashes of collected file names). `diff -r OUT_A OUT_B` shows
what changed; `diff -rwB` what changed beyond whitespace.
"""

import argparse
import json
import os
import re
import sys
from pathlib import Path

from scripts.servers import create_database, manage

MASKS = [
    (re.compile(r'(name="csrfmiddlewaretoken" value=")[^"]+'), r"\1<csrf>"),
    (re.compile(r'(nonce=")[^"]+'), r"\1<nonce>"),
    (re.compile(r"('nonce-)[^']+"), r"\1<nonce>"),
    (re.compile(r"(csrftoken=|sessionid=|messages=)[^;\s]+"), r"\1<cookie>"),
    (re.compile(r"expires=[^;]+;"), "expires=<time>;"),
    (re.compile(r"\d{4}-\d\d-\d\d[T ]\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:?\d\d)?"), "<time>"),
    (re.compile(r"[A-Z][a-z]{2}, \d\d [A-Z][a-z]{2} \d{4} \d\d:\d\d:\d\d GMT"), "<time>"),
    (re.compile(r"(/static/[^\"'\s)]+?)\.[0-9a-f]{12}(\.\w+)"), r"\1.<hash>\2"),
    (re.compile(r"(eyJ)[\w-]+\.[\w-]+\.[\w-]+"), r"\1<jwt>"),
]
DROPPED_HEADERS = {"date"}


def masked(text: str) -> str:
    for pattern, replacement in MASKS:
        text = pattern.sub(replacement, text)
    return text


def paths(shop) -> dict[str, list[str]]:
    """Who asks for what: pages and API reads, with search, filter and page combinations."""
    from catalog.models import Category, Part
    from orders.models import Booking
    from shop import content, demo_data

    parts = list(Part.objects.order_by("id").values_list("id", flat=True))
    out_of_stock = Part.objects.filter(available_quantity=0).values_list("id", flat=True).first()
    few = Part.objects.filter(available_quantity__lt=10, available_quantity__gt=0).first()
    category = Category.objects.order_by("slug").values_list("slug", flat=True).first()
    order = shop.order_id
    someone_elses = Booking.objects.exclude(user__email=demo_data.USER.email).first()
    pages = [
        "/",
        "/?page=2",
        "/allparts",
        "/allparts?page=2",
        "/allparts?page=5",
        "/allparts?page=999",
        "/allparts?page=abc",
        "/allparts?q=brake",
        "/allparts?q=brake&sort=price",
        "/allparts?q=chain&inStock=true",
        "/allparts?q=brake+pads&sort=-price&page=1",
        "/allparts?sort=name",
        "/allparts?sort=name&page=2",
        "/allparts?sort=-price&inStock=true&page=3",
        f"/allparts?category={category}",
        f"/allparts?category={category}&sort=price&minPrice=10&maxPrice=60",
        "/allparts?minPrice=20&maxPrice=30",
        "/allparts?minPrice=abc&sort=bogus",
        "/allparts?category=no-such-category",
        "/allparts?q=%3Cscript%3E",
        "/allparts?utm_source=mail",
        *[f"/parts/{pk}" for pk in parts[:3] + parts[-3:]],
        *([f"/parts/{out_of_stock}"] if out_of_stock else []),
        *([f"/parts/{few.pk}"] if few else []),
        "/parts/999999",
        f"/purchaseintent/{parts[0]}",
        "/blogs",
        "/myportfolio",
        *[f"/{page.slug}" for page in content.TRUST_PAGES],
        "/login",
        "/signup",
        "/dashboard",
        "/dashboard/profile",
        "/dashboard/myorder",
        f"/dashboard/orders/{order}",
        *([f"/dashboard/orders/{someone_elses.pk}"] if someone_elses else []),
        "/dashboard/orders/999999",
        f"/dashboard/payment/{order}",
        "/dashboard/review",
        "/dashboard/overview",
        "/dashboard/manageorders",
        "/dashboard/manageorders?state=unpaid",
        "/dashboard/manageorders?q=brake&page=1",
        "/dashboard/manageparts",
        "/dashboard/manageparts?page=2",
        "/dashboard/addparts",
        f"/dashboard/parts/{parts[0]}/edit",
        f"/dashboard/parts/{parts[0]}/stock",
        "/dashboard/users",
        "/no-such-page",
    ]
    api = [
        "/api/allparts",
        "/api/allparts?limit=5",
        "/api/allparts?limit=5&offset=3",
        "/api/allparts?limit=24&inStock=true&q=brake",
        "/api/allparts?q=chain",
        "/api/allparts?sort=price&limit=10",
        "/api/allparts?sort=-price&inStock=true",
        f"/api/allparts?category={category}&minPrice=5",
        "/api/allparts?minPrice=abc",
        "/api/allparts?sort=bogus",
        "/api/allparts?limit=0",
        *[f"/api/allparts/{pk}" for pk in parts[:3]],
        "/api/allparts/999999",
        "/api/categories",
        "/api/review",
        f"/api/booking?email={demo_data.USER.email}",
        f"/api/booking/{order}",
        "/api/bookings",
        "/api/bookings?state=unpaid&limit=5",
        "/api/stats",
        "/api/stats?days=7",
        "/api/user/me",
        "/api/user",
        f"/api/admin/{demo_data.ADMIN.email}",
        "/api/no-such-endpoint",
    ]
    return {"pages": pages, "api": api}


def clients(shop):
    """(who, page client, API client) for the visitor, the shopper and the admin."""
    from django.conf import settings
    from django.test import Client
    from rest_framework.test import APIClient

    from accounts.models import User
    from bench.lib.data import token_of
    from shop import demo_data

    visitor = ("visitor", Client(), APIClient())
    people = [visitor]
    for who, account in (("shopper", demo_data.USER), ("admin", demo_data.ADMIN)):
        user = User.objects.get(email=account.email)
        browser = Client()
        browser.cookies[settings.SESSION_COOKIE_NAME] = (
            shop.shopper_session if who == "shopper" else shop.admin_session
        )
        browser.get("/dashboard/profile")  # the CSRF cookie, as a browser has it
        api = APIClient()
        api.credentials(HTTP_AUTHORIZATION=f"Bearer {token_of(user)}")
        people.append((who, browser, api))
    return people


def header_text(name: str, value: str) -> str:
    if name.lower() == "content-security-policy":  # its directives come in any order
        value = "; ".join(sorted(value.split("; ")))
    return f"{name}: {masked(value)}"


def answer_text(response) -> str:
    headers = "\n".join(
        header_text(name, value)
        for name, value in sorted(response.headers.items())
        if name.lower() not in DROPPED_HEADERS
    )
    cookies = "\n".join(
        f"Set-Cookie: {masked(morsel.OutputString())}"
        for _, morsel in sorted(response.cookies.items())
    )
    body = b"".join(response.streaming_content) if response.streaming else response.content
    text = body.decode(errors="replace")
    if response.get("Content-Type", "").startswith("application/json") and text:
        text = json.dumps(json.loads(text), indent=1, ensure_ascii=False)
    return f"{response.status_code}\n{headers}\n{cookies}\n\n{masked(text)}\n"


def file_name(path: str) -> str:
    return re.sub(r"[^\w.-]+", "_", path.strip("/")) or "home"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--database-url", default="postgres://postgres@127.0.0.1:5432/shop_answers")
    parser.add_argument("--redis-url", default="redis://127.0.0.1:6379/7")
    args = parser.parse_args()
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "shop.settings",
        "DEBUG": "0",
        "SECRET_KEY": "answers-only-secret-key-not-for-production-0123456789abcdef",
        "SECURE_SSL_REDIRECT": "0",
        "ALLOWED_HOSTS": "testserver,localhost",
        "SITE_URL": "http://testserver",
        "DATABASE_URL": args.database_url,
        "REDIS_URL": args.redis_url,
        "STRIPE_SECRET_KEY": "",
        "STRIPE_PUBLISHABLE_KEY": "",
        "LOG_LEVEL": "ERROR",
        "MAX_UNPAID_ORDERS": "100",  # the seeded shopper's orders (bench.lib.data)
    }
    create_database(args.database_url)
    manage("migrate", "--noinput", env=env)
    manage("collectstatic", "--noinput", "-v", "0", env=env)
    from bench.lib import db

    db.setup(env)
    db.redis_clear(args.redis_url)
    from bench.lib import data

    shop = data.seed(parts=60, orders=8, shoppers=1)
    count = 0
    for who, browser, api in clients(shop):
        for kind, listed in paths(shop).items():
            client = browser if kind == "pages" else api
            folder = args.out / who / kind
            folder.mkdir(parents=True, exist_ok=True)
            for path in listed:
                first, again = client.get(path), client.get(path)
                text = answer_text(first) + "\n--- asked again ---\n" + answer_text(again)
                (folder / f"{file_name(path)}.txt").write_text(text)
                count += 2
    print(f"{count} answers written under {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
