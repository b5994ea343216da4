"""Two tabs changing one cart at once, on a real database with real row locks: both
additions count, the cart's line limit holds, a removal waits for the cart's other writes."""

import threading
from decimal import Decimal

import pytest
from django.db import connections, transaction
from rest_framework.test import APIClient

from accounts.tests.factories import UserFactory
from catalog.models import Part
from catalog.tests.factories import PartFactory
from conftest import bearer_client
from core.errors import NotFound
from orders import services
from orders.models import Booking, Cart, CartLine
from orders.tests.factories import CartLineFactory

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.slow,  # threads racing on real row locks
]
ROUNDS = 5


def at_once(calls):
    """Run each call in its own thread, released together; their answers."""
    start = threading.Barrier(len(calls))
    answers = [None] * len(calls)

    def run(index, call):
        try:
            start.wait()
            answers[index] = call()
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=pair) for pair in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return answers


def adder(client, part, quantity):
    payload = {"partId": part.pk, "quantity": quantity}
    return lambda: client.post("/api/cart", payload, format="json").status_code


def test_two_tabs_add_a_new_part_at_once_and_both_quantities_count():
    user = UserFactory()
    for _ in range(ROUNDS):
        part = PartFactory(price=Decimal("3.00"), minimum_order_quantity=1, available_quantity=50)
        tabs = [bearer_client(user), bearer_client(user)]
        assert at_once([adder(tabs[0], part, 2), adder(tabs[1], part, 3)]) == [200, 200]
        assert CartLine.objects.get(part=part).quantity == 5


def test_two_tabs_of_a_visitor_add_to_a_line_at_once():
    part = PartFactory(price=Decimal("3.00"), minimum_order_quantity=1, available_quantity=500)
    first = APIClient()
    assert first.post("/api/cart", {"partId": part.pk, "quantity": 1}, format="json").json()
    second = APIClient()
    second.cookies = first.cookies  # the same browser: the same session
    for _ in range(ROUNDS):
        calls = [adder(first, part, 4), adder(second, part, 6)] * 2
        assert at_once(calls) == [200] * 4
    assert CartLine.objects.get(part=part).quantity == 1 + ROUNDS * 20


def test_the_line_limit_holds_when_two_new_parts_come_at_once(settings):
    settings.CART_MAX_LINES = 1
    user = UserFactory()
    parts = [PartFactory(minimum_order_quantity=1, available_quantity=5) for _ in range(2)]
    tabs = [bearer_client(user), bearer_client(user)]
    answers = at_once([adder(tabs[0], parts[0], 1), adder(tabs[1], parts[1], 1)])
    assert sorted(answers) == [200, 400]
    assert CartLine.objects.count() == 1


def test_the_stock_bound_holds_when_two_tabs_add_at_once():
    user = UserFactory()
    part = PartFactory(minimum_order_quantity=1, available_quantity=5)
    tabs = [bearer_client(user), bearer_client(user)]
    answers = at_once([adder(tabs[0], part, 3), adder(tabs[1], part, 3)])
    assert sorted(answers) == [200, 400]
    assert CartLine.objects.get().quantity == 3


WHERE = {"address": "1 Dock St", "phone": "0123456789"}


def checker(client):
    return lambda: client.post("/api/checkout", WHERE, format="json")


def test_one_cart_checked_out_from_two_devices_at_once_is_one_order():
    user = UserFactory()
    parts = [PartFactory(minimum_order_quantity=1, available_quantity=10) for _ in range(2)]
    phone, laptop = bearer_client(user), bearer_client(user)
    for part in parts:
        assert adder(phone, part, 2)() == 200
    answers = at_once([checker(phone), checker(laptop)])
    assert sorted(a.status_code for a in answers) == [201, 400]
    refused = next(a for a in answers if a.status_code == 400)
    assert refused.json() == {"detail": "Your cart is empty."}
    assert Booking.objects.count() == 1
    assert sorted(Part.objects.values_list("available_quantity", flat=True)) == [8, 8]


def test_two_carts_race_for_the_last_units_one_order_whole_the_other_cart_unchanged(settings):
    settings.MAX_HELD_SHARE = 1  # each may hold every unit: the stock alone decides
    last = PartFactory(minimum_order_quantity=1, available_quantity=3)
    other = PartFactory(minimum_order_quantity=1, available_quantity=10)
    shoppers = [bearer_client(UserFactory()) for _ in range(2)]
    for client in shoppers:
        assert adder(client, other, 1)() == 200
        assert adder(client, last, 3)() == 200
    answers = at_once([checker(client) for client in shoppers])
    assert sorted(a.status_code for a in answers) == [201, 409]
    refused = next(a for a in answers if a.status_code == 409)
    assert refused.json()["partId"] == last.pk
    loser = shoppers[answers.index(refused)]
    lines = [(line["partId"], line["quantity"]) for line in loser.get("/api/cart").json()["lines"]]
    assert lines == [(other.pk, 1), (last.pk, 3)]
    assert Part.objects.get(pk=last.pk).available_quantity == 0
    assert Part.objects.get(pk=other.pk).available_quantity == 9  # nothing held by the loser


def test_a_part_deleted_while_it_is_added_is_a_404_and_no_line():
    """The new line's part key is checked when the addition commits: the part gone by then is
    the 404 "no longer available", not a server error, and the cart has no line."""
    part = PartFactory(available_quantity=5, minimum_order_quantity=1)
    the_cart = Cart.objects.create(user=UserFactory())
    seen = Part.objects.get(pk=part.pk)  # what the shopper's request read
    part.delete()

    with pytest.raises(NotFound, match="This part is no longer available"):
        services.cart_add(cart=the_cart, user=the_cart.user, part=seen, quantity=1)
    assert not CartLine.objects.exists()


def test_a_removal_waits_for_the_carts_lock_like_every_write():
    """cart_remove takes the cart's row lock first, as the others do: while another write of
    the cart (here: a checkout's lock) is open, the removal waits for it."""
    line = CartLineFactory(cart=Cart.objects.create())
    locked, release = threading.Event(), threading.Event()

    def hold_the_cart():
        try:
            with transaction.atomic():
                Cart.objects.select_for_update().get(pk=line.cart_id)
                locked.set()
                release.wait(10)
        finally:
            connections.close_all()

    def remove():
        try:
            services.cart_remove(cart=line.cart, part_id=line.part_id)
        finally:
            connections.close_all()

    holder = threading.Thread(target=hold_the_cart)
    holder.start()
    assert locked.wait(10)
    remover = threading.Thread(target=remove)
    remover.start()
    remover.join(0.5)
    waited = remover.is_alive()
    still_there = CartLine.objects.filter(pk=line.pk).exists()
    release.set()
    holder.join(10)
    remover.join(10)

    assert waited and still_there
    assert not CartLine.objects.exists()


def test_the_total_shown_is_compared_at_the_prices_read_under_the_parts_locks():
    """The owner raises a price while a checkout waits for the part's lock: the checkout read
    the old price before the lock, but the order would be placed at the new one, so the total
    the shopper was shown no longer holds (409) and nothing is held."""
    part = PartFactory(price=Decimal("10.00"), minimum_order_quantity=1, available_quantity=10)
    shopper = bearer_client(UserFactory())
    assert adder(shopper, part, 2)() == 200
    locked, release = threading.Event(), threading.Event()
    answers = []

    def raise_the_price():
        try:
            with transaction.atomic():
                Part.objects.select_for_update().filter(pk=part.pk).update(price=Decimal("100.00"))
                locked.set()
                release.wait(10)
        finally:
            connections.close_all()

    def check_out():
        try:
            body = {**WHERE, "expectedTotal": "20.00"}
            answers.append(shopper.post("/api/checkout", body, format="json"))
        finally:
            connections.close_all()

    owner = threading.Thread(target=raise_the_price)
    owner.start()
    assert locked.wait(10)
    checkout = threading.Thread(target=check_out)
    checkout.start()
    checkout.join(0.5)  # it waits for the part's lock
    release.set()
    owner.join(10)
    checkout.join(10)

    (answer,) = answers
    assert answer.status_code == 409
    assert (
        answer.json()["detail"] == "Prices changed since you looked: please check your order again."
    )
    assert answer.json()["cart"]["total"] == 200.0
    assert not Booking.objects.exists()
    assert Part.objects.get(pk=part.pk).available_quantity == 10
    assert CartLine.objects.get(part=part).quantity == 2
