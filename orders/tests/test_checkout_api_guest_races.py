"""Guests' checkouts of one e-mail at once, on a real database with real locks: the e-mail's
lock makes them count each other, so MAX_UNPAID_ORDERS holds per e-mail under concurrency."""

import threading
from decimal import Decimal

import pytest
from django.db import connections
from rest_framework.test import APIClient

from catalog.tests.factories import PartFactory
from orders.models import Booking

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.slow,  # threads racing on real locks, seconds each
]

GUESTS = 6
CAP = 2


def test_guests_of_one_email_racing_place_at_most_the_cap(settings):
    settings.MAX_UNPAID_ORDERS = CAP
    part = PartFactory(price=Decimal("5.00"), minimum_order_quantity=1, available_quantity=50)
    clients = [APIClient(REMOTE_ADDR=f"10.8.0.{n + 1}") for n in range(GUESTS)]
    for client in clients:
        added = client.post("/api/cart", {"partId": part.pk, "quantity": 1}, format="json")
        assert added.status_code == 200
    start = threading.Barrier(GUESTS)
    codes = []

    def check_out(client):
        try:
            start.wait()
            payload = {"email": "ann@example.com", "address": "1 Road", "phone": "12345"}
            codes.append(client.post("/api/checkout", payload, format="json").status_code)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=check_out, args=(client,)) for client in clients]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert sorted(codes) == [201] * CAP + [409] * (GUESTS - CAP)
    assert Booking.objects.filter(email="ann@example.com", user=None).count() == CAP
