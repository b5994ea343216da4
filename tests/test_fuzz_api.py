"""Schemathesis fuzzes every operation of the API's OpenAPI schema over real HTTP.

The schema is the one GET /api/schema serves (drf-spectacular; a test below checks they are the
same). Every operation runs against Django's live_server as an anonymous caller, a signed-in
user and a shop admin (Bearer JWT), with a bounded, seeded and derandomized number of examples
(Schemathesis' examples, coverage and fuzzing phases, valid and invalid input alike), and every
answer must be: no 5xx, a documented status code, a documented content type and a body that
matches the documented schema.

So that the happy paths are reached too, and not only unknown ids, a part, an unpaid order of
the owner (the `user` caller is the owner) and a review exist under fixed ids, and the schema's
path parameters and request bodies carry examples naming them. Card payments run against
localstripe (`stripe_on`); the Stripe webhook is fuzzed unsigned and must answer 400.
"""

import json
from collections import Counter

import pytest
import requests
import schemathesis
from django.core.cache import cache
from drf_spectacular.generators import SchemaGenerator
from drf_spectacular.renderers import OpenApiJsonRenderer
from hypothesis import HealthCheck, settings
from rest_framework_simplejwt.tokens import RefreshToken
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from accounts.tests.factories import TEST_PASSWORD, AdminFactory, UserFactory
from catalog.models import Vehicle
from catalog.tests.factories import PartFactory
from orders.tests.factories import BookingFactory
from pricing.models import ShippingMethod, TaxRate, Voucher
from reviews.tests.factories import ReviewFactory

MAX_EXAMPLES = 15  # per operation and caller, in the fuzzing phase
SEED = 20_240_505
CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_schema_conformance,
]

OWNER_ID = 900_001
OWNER_EMAIL = "fuzz-owner@example.com"
PART_ID = 900_002
BOOKING_ID = 900_003
VEHICLE_ID = 900_004
METHOD_ID = 900_005
TAX_RATE_ID = 900_006
VOUCHER_ID = 900_007

PATH_EXAMPLES = {
    "id": {
        "/api/allparts/{id}": PART_ID,
        "/api/allparts/{id}/fitment": PART_ID,
        "/api/saved/{id}": PART_ID,
        "/api/booking/{id}": BOOKING_ID,
        "/api/shipping-methods/{id}": METHOD_ID,
        "/api/tax-rates/{id}": TAX_RATE_ID,
        "/api/vouchers/{id}": VOUCHER_ID,
    },
    "email": OWNER_EMAIL,
}


def example_refresh_token() -> RefreshToken:
    token = RefreshToken()
    token["user_id"] = str(OWNER_ID)
    return token


BODY_EXAMPLES = {
    ("/api/signup", "post"): {
        "name": "Fuzz Rider",
        "email": "fuzzrider@example.com",
        "password": TEST_PASSWORD,
    },
    ("/api/token", "post"): {"email": OWNER_EMAIL, "password": TEST_PASSWORD},
    # Well-formed refresh tokens (made without the database; the owner's password is not
    # known yet, so they answer 401 like any token issued before a password change).
    ("/api/token/refresh", "post"): {"refresh": str(example_refresh_token())},
    ("/api/token/revoke", "post"): {"refresh": str(example_refresh_token())},
    ("/api/users/{email}", "put"): {
        "education": "BSc Mechanical Engineering",
        "location": "Leeds",
        "phone": "+441130000000",
        "linkedin": "https://www.linkedin.com/in/fuzz-rider",
    },
    ("/api/booking", "post"): {
        "partId": PART_ID,
        "quantity": 2,
        "address": "12 Harbour Road, Leeds",
        "phone": "+441130000000",
    },
    ("/api/booking/{id}", "put"): {"status": "approved"},
    ("/api/create-payment-intent", "post"): {"booking": BOOKING_ID},
    ("/api/review", "post"): {"name": "Fuzz Rider", "review": "Fits well.", "ratings": 4},
    ("/api/allparts/{id}/fitment", "put"): {"universal": False, "vehicles": [VEHICLE_ID]},
    ("/api/saved", "post"): {"partId": PART_ID},
    ("/api/shipping-methods", "post"): {
        "name": "Express",
        "countries": ["US"],
        "bands": [{"upToGrams": 2000, "price": 14.99}],
    },
    ("/api/tax-rates", "post"): {"country": "FR", "name": "TVA", "rate": 20},
    ("/api/vouchers", "post"): {"code": "RIDE10", "kind": "percent", "value": 10},
}

# Thousands of requests to live_server: about 2 minutes.
pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]

requests_sent = Counter()


def fuzz_config() -> schemathesis.Config:
    """Bounded and repeatable: the same examples on every run, nothing stored between runs."""
    return schemathesis.Config.from_dict(
        {
            "seed": SEED,
            "generation": {
                "max-examples": MAX_EXAMPLES,
                "deterministic": True,
                "database": "none",
            },
        }
    )


def path_example(path: str, name: str):
    example = PATH_EXAMPLES.get(name)
    return example.get(path) if isinstance(example, dict) else example


def served_document() -> dict:
    """The OpenAPI document that GET /api/schema serves."""
    return json.loads(OpenApiJsonRenderer().render(SchemaGenerator().get_schema(public=True)))


def with_examples(document: dict) -> dict:
    """The document, with examples that name the objects the `callers` fixture creates."""
    for path, operations in document["paths"].items():
        for method, operation in operations.items():
            for parameter in operation.get("parameters", []):
                example = path_example(path, parameter["name"])
                if parameter["in"] == "path" and example is not None:
                    parameter["example"] = example
            if (path, method) in BODY_EXAMPLES:
                body = operation["requestBody"]["content"]["application/json"]
                body["example"] = BODY_EXAMPLES[(path, method)]
    return document


def bearer(user) -> dict[str, str]:
    return {"Authorization": f"Bearer {RefreshToken.for_user(user).access_token}"}


@pytest.fixture
def callers(transactional_db, stripe_on) -> dict[str, dict[str, str]]:
    """The headers of each caller. The objects the examples name exist; the `user` caller owns
    the order and the e-mail of the examples, the admin does not."""
    owner = UserFactory(pk=OWNER_ID, email=OWNER_EMAIL)
    part = PartFactory(pk=PART_ID, available_quantity=10_000, minimum_order_quantity=1)
    BookingFactory(pk=BOOKING_ID, user=owner, part=part)
    Vehicle.objects.create(pk=VEHICLE_ID, make="Yamaha", model="MT-07", year=2019)
    ReviewFactory()
    ShippingMethod.objects.create(pk=METHOD_ID, name="Standard", is_default=True)
    TaxRate.objects.create(pk=TAX_RATE_ID, country="DE", name="VAT", rate=19)
    Voucher.objects.create(pk=VOUCHER_ID, code="FREESHIP", kind="shipping")
    return {"anonymous": {}, "user": bearer(owner), "admin": bearer(AdminFactory())}


class FuzzSummary:
    """Adds one line to pytest's closing summary: how much the fuzzer sent."""

    def pytest_terminal_summary(self, terminalreporter):
        statuses = ", ".join(f"{code}: {n}" for code, n in sorted(requests_sent.items()))
        terminalreporter.write_line(
            f"API fuzzing: {sum(requests_sent.values())} requests ({statuses})"
        )


@pytest.fixture(scope="module", autouse=True)
def fuzz_summary(request):
    plugins = request.config.pluginmanager
    if not plugins.has_plugin("fuzz-summary"):
        plugins.register(FuzzSummary(), "fuzz-summary")


schema = schemathesis.openapi.from_dict(with_examples(served_document()), config=fuzz_config())


def test_fuzzed_schema_is_the_served_one(live_server):
    served = requests.get(f"{live_server.url}/api/schema?format=json", timeout=10)
    assert served.json() == served_document()


@schema.parametrize()
@settings(suppress_health_check=[HealthCheck.function_scoped_fixture])
def test_api_answers_as_documented(case, callers, live_server):
    """No 5xx, and status, content type and body as the schema says, for every caller."""
    for caller, headers in callers.items():
        cache.clear()  # throttle and rate-limit counters: the fuzzer is not the abuse under test
        try:
            response = case.call_and_validate(
                base_url=live_server.url, headers=headers, checks=CHECKS
            )
            if (case.method, case.operation.path) == ("POST", "/api/stripe/webhook"):
                assert response.status_code == 400  # unsigned: refused, never acted on
        except Exception as failure:
            failure.add_note(f"Caller: {caller}")
            raise
        requests_sent[response.status_code] += 1
