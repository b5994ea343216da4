"""A page of parts for one bike stays a few SQL queries however big the shop (issue 23: at
most 5 at 10,000 parts, 5,000 vehicles and 200,000 fitment rows, and the same at 100 parts)."""

import pytest
from django.db.models import Q

from catalog.models import Fitment, Part, Vehicle
from catalog.tests.big_catalog import build

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.slow,
    pytest.mark.postgres(reason="the big catalog is written by PostgreSQL (generate_series)"),
]

SIZES = {
    "100 parts": {"parts": 100, "vehicles": 5_000, "fitment": 2_000},
    "10,000 parts": {"parts": 10_000, "vehicles": 5_000, "fitment": 200_000},
}


@pytest.mark.parametrize("size", SIZES)
def test_a_page_for_a_bike_takes_at_most_5_queries(
    size, client, anon, admin_user, django_assert_max_num_queries
):
    build(**SIZES[size])
    assert (Part.objects.count(), Vehicle.objects.count(), Fitment.objects.count()) == tuple(
        SIZES[size].values()
    )
    bike = Fitment.objects.order_by("id")[SIZES[size]["fitment"] // 2].vehicle_id
    fitting = Part.objects.filter(Q(universal=True) | Q(fitments__vehicle_id=bike)).distinct()
    assert fitting.filter(universal=False).exists()

    pages = [
        f"/allparts?fits={bike}",
        f"/allparts?fits={bike}&q=part&sort=price&page=2",
        f"/allparts?fits={bike}&inStock=true&minPrice=20&sort=-price",
    ]
    apis = [
        f"/api/allparts?fits={bike}&limit=24",
        f"/api/allparts?fits={bike}&q=PN-00042&limit=24",
        f"/api/allparts?fits={bike}&sort=name&offset=24&limit=24",
    ]
    for path in pages:
        with django_assert_max_num_queries(5):
            assert client.get(path).status_code == 200
    for path in apis:
        with django_assert_max_num_queries(5):
            response = anon.get(path)
        assert response.status_code == 200
    response = anon.get(f"/api/allparts?fits={bike}&limit=1")
    assert response["X-Total-Count"] == str(fitting.count())
    client.force_login(admin_user)  # a signed-in admin's page too
    with django_assert_max_num_queries(5):
        assert client.get(pages[0]).status_code == 200
