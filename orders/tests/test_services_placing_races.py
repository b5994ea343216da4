"""Stock under concurrent orders, on a real database with real row locks."""

import threading
from decimal import Decimal

import pytest
from django.db import connections

from accounts.tests.factories import UserFactory
from catalog.models import Part
from catalog.tests.factories import PartFactory
from conftest import bearer_client
from orders.models import Booking

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.slow,  # threads racing on real row locks, seconds each
]

SHOPPERS = 20
STOCK = 10


def test_twenty_shoppers_race_for_the_last_ten_units():
    part = PartFactory(price=Decimal("5.00"), minimum_order_quantity=1, available_quantity=STOCK)
    clients = [bearer_client(UserFactory()) for _ in range(SHOPPERS)]
    start = threading.Barrier(SHOPPERS)
    answers = []

    def shop(client):
        try:
            start.wait()
            payload = {"partId": part.pk, "quantity": 1, "address": "a", "phone": "12345"}
            response = client.post("/api/booking", payload, format="json")
            answers.append((response.status_code, response.json()))
        finally:
            connections.close_all()

    threads = [threading.Thread(target=shop, args=(client,)) for client in clients]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    part.refresh_from_db()
    codes = [code for code, _ in answers]
    assert codes.count(201) == STOCK
    assert set(codes) <= {201, 400, 409}
    assert part.available_quantity == 0
    assert Booking.objects.count() == STOCK
    refused = [body for code, body in answers if code != 201]
    assert len(refused) == SHOPPERS - STOCK
    for body in refused:
        message = body.get("detail") or body["quantity"][0]
        assert "available" in message or "left" in message
    assert Part.objects.filter(available_quantity__lt=0).count() == 0
