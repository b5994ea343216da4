"""Returns (API.md "After the sale"): the rules of orders.services.returning and its one money
rule, refund_share (a line's total less its share of the discount; shipping only when the
whole order comes back), on orders paid outside Stripe (no transaction id: nothing is asked of
Stripe here; test_api_returns.py refunds at the fake Stripe)."""

import random
from datetime import timedelta
from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError
from django.utils import timezone
from post_office.models import Email

from catalog.models import Part, StockMovement
from catalog.tests.factories import PartFactory
from core.errors import Conflict, Rejected
from orders import services
from orders.models import Booking, BookingLine, Return
from orders.services.returning import allocate

D = Decimal


def shipped_order(
    user,
    lines,
    *,
    discount="0",
    shipping="0",
    tax="0",
    tax_included=True,
    shipped_days_ago=1,
    status="approved",
):
    """A paid order of `lines` ([(price, quantity), …], one new part each), shipped
    `shipped_days_ago` days ago, with this breakdown."""
    parts = [PartFactory(price=D(price), available_quantity=10) for price, _ in lines]
    subtotal = sum((D(price) * quantity for price, quantity in lines), D(0))
    total = subtotal - D(discount) + D(shipping) + (D(0) if tax_included else D(tax))
    shipped = status == "approved"
    booking = Booking.objects.create(
        user=user,
        email=user.email,
        name=user.name,
        total_price=total,
        subtotal=subtotal,
        discount=D(discount),
        shipping_price=D(shipping),
        tax=D(tax),
        tax_included=tax_included,
        address="1 Road",
        phone="+441130000000",
        paid=True,
        paid_at=timezone.now() - timedelta(days=shipped_days_ago + 1),
        status=status if shipped else None,
        shipped_at=timezone.now() - timedelta(days=shipped_days_ago) if shipped else None,
    )
    for part, (price, quantity) in zip(parts, lines, strict=True):
        BookingLine.objects.create(
            booking=booking,
            part=part,
            parts_name=part.name,
            price_per_unit=D(price),
            quantity=quantity,
            line_total=D(price) * quantity,
        )
    return booking


def parts_of(booking):
    return [line.part for line in booking.lines.all()]


def ask(booking, *units, reason="doesnt_fit", comment=""):
    """A return of `units` ([(part, quantity), …])."""
    lines = [{"partId": part.pk, "quantity": quantity} for part, quantity in units]
    return services.return_request(booking=booking, lines=lines, reason=reason, comment=comment)


def receive(ret, restock=False):
    ret = services.return_decide(ret=ret, state="approved")
    return services.return_receive(ret=ret, restock=restock)


def lines_problem(excinfo) -> str:
    return excinfo.value.message_dict["lines"][0]


# The money rule, on orders as stored (no database needed for the rule itself).


def order(lines, *, discount="0", shipping="0", tax="0", tax_included=True, refunded="0"):
    """An unsaved order and its lines (ids 1, 2, …) for refund_share."""
    subtotal = sum((D(p) * q for p, q in lines), D(0))
    total = subtotal - D(discount) + D(shipping) + (D(0) if tax_included else D(tax))
    booking = Booking(
        total_price=total,
        subtotal=subtotal,
        discount=D(discount),
        shipping_price=D(shipping),
        tax=D(tax),
        tax_included=tax_included,
        refunded_amount=D(refunded),
    )
    rows = [
        BookingLine(pk=i, price_per_unit=D(p), quantity=q, line_total=D(p) * q)
        for i, (p, q) in enumerate(lines, start=1)
    ]
    return booking, rows


def share(booking, rows, returning, refunded=None):
    return services.refund_share(
        booking=booking, lines=rows, returning=returning, refunded=refunded or {}
    )


def test_a_line_without_discount_refunds_its_units():
    booking, rows = order([("10.00", 2), ("30.00", 1)], shipping="5.00")
    assert share(booking, rows, {1: 1}) == D("10.00")
    assert share(booking, rows, {2: 1}) == D("30.00")


def test_a_line_refunds_its_total_less_its_share_of_the_discount():
    # $10 off $50: the $20 line carries $4 of it, the $30 line $6.
    booking, rows = order([("10.00", 2), ("30.00", 1)], discount="10.00", shipping="5.00")
    assert share(booking, rows, {1: 1}) == D("8.00")
    assert share(booking, rows, {1: 2}) == D("16.00")
    assert share(booking, rows, {2: 1}) == D("24.00")


def test_the_discount_shares_add_up_to_the_discount_to_the_cent():
    assert allocate(D("1.00"), [D(10), D(10), D(10)]) == [D("0.34"), D("0.33"), D("0.33")]
    assert allocate(D("0.05"), [D(1), D(1), D(1)]) == [D("0.02"), D("0.02"), D("0.01")]
    assert allocate(D("0"), [D(5)]) == [D("0.00")]
    rng = random.Random(7)
    for _ in range(500):
        weights = [D(rng.randint(1, 100000)) / 100 for _ in range(rng.randint(1, 7))]
        amount = D(rng.randint(0, int(sum(weights) * 100))) / 100
        parts = allocate(amount, weights)
        assert sum(parts) == amount
        assert all(part >= 0 for part in parts)


def test_units_of_a_line_returned_one_by_one_add_up_to_its_value():
    # $0.01 off $40: the $30 line carries it ($29.99 for 3 units), the $10 line nothing.
    booking, rows = order([("10.00", 3), ("10.00", 1)], discount="0.01")
    firsts = [share(booking, rows, {1: 1}, {1: before}) for before in range(3)]
    assert firsts == [D("10.00"), D("9.99"), D("10.00")]
    assert sum(firsts) == D("29.99")
    assert share(booking, rows, {1: 2}) == firsts[0] + firsts[1]
    assert share(booking, rows, {2: 1}) == D("10.00")


def test_shipping_is_refunded_only_when_the_whole_order_comes_back():
    booking, rows = order([("10.00", 2), ("30.00", 1)], discount="10.00", shipping="5.00")
    assert booking.total_price == D("45.00")
    first = share(booking, rows, {1: 2})
    assert first == D("16.00")
    booking.refunded_amount = first
    # The last units bring back the whole remainder: their share and the shipping.
    assert share(booking, rows, {2: 1}, {1: 2}) == D("29.00")
    # All at once: the whole total.
    booking.refunded_amount = D("0")
    assert share(booking, rows, {1: 2, 2: 1}) == D("45.00")


def test_tax_added_on_top_is_refunded_with_the_lines_share():
    # Not included: $8.00 tax on $40 of goods and $0 shipping; the $20 line carries $4.00.
    booking, rows = order([("10.00", 2), ("20.00", 1)], tax="8.00", tax_included=False)
    assert share(booking, rows, {1: 2}) == D("24.00")
    # With shipping the tax is split over the lines and the shipping: $44 → 20/44 of $8.80.
    booking, rows = order(
        [("10.00", 2), ("20.00", 1)], shipping="4.00", tax="8.80", tax_included=False
    )
    assert share(booking, rows, {1: 2}) == D("24.00")
    # Included in the prices: nothing is added.
    booking, rows = order([("10.00", 2), ("20.00", 1)], tax="6.67")
    assert share(booking, rows, {1: 2}) == D("20.00")


# Asking for a return.


def test_the_shopper_returns_units_of_a_shipped_order(user):
    booking = shipped_order(user, [("10.00", 2), ("30.00", 1)])
    brake, _ = parts_of(booking)
    ret = ask(booking, (brake, 1), reason="wrong_part", comment=" Too small ")
    assert (ret.state, ret.reason, ret.comment) == ("requested", "wrong_part", "Too small")
    assert [(line.booking_line.part_id, line.quantity) for line in ret.lines.all()] == [
        (brake.pk, 1)
    ]


def test_an_order_not_shipped_cannot_be_returned(user):
    booking = shipped_order(user, [("10.00", 2)], status="paid")
    with pytest.raises(Conflict) as excinfo:
        ask(booking, (parts_of(booking)[0], 1))
    assert excinfo.value.message == services.NOT_SHIPPED


def test_returns_are_accepted_within_return_days_of_shipping(settings, user):
    inside = shipped_order(user, [("10.00", 2)], shipped_days_ago=29)
    ask(inside, (parts_of(inside)[0], 1))
    late = shipped_order(user, [("10.00", 2)], shipped_days_ago=31)
    with pytest.raises(Rejected) as excinfo:
        ask(late, (parts_of(late)[0], 1))
    assert excinfo.value.message == "Returns are accepted within 30 days of shipping."
    settings.RETURN_DAYS = 60
    ask(late, (parts_of(late)[0], 1))
    settings.RETURN_DAYS = 10
    with pytest.raises(Rejected) as excinfo:
        ask(inside, (parts_of(inside)[0], 1))
    assert excinfo.value.message == "Returns are accepted within 10 days of shipping."


def test_a_part_not_in_the_order_is_refused_on_lines(user):
    booking = shipped_order(user, [("10.00", 2)])
    stranger = PartFactory()
    with pytest.raises(ValidationError) as excinfo:
        ask(booking, (stranger, 1))
    assert lines_problem(excinfo) == f"This order has no part with id {stranger.pk}"


def test_no_more_units_than_were_bought_and_not_yet_returned(user):
    booking = shipped_order(user, [("10.00", 3)])
    (part,) = parts_of(booking)
    with pytest.raises(ValidationError) as excinfo:
        ask(booking, (part, 4))
    assert lines_problem(excinfo) == f"Only 3 units of {part.name} can be returned"
    first = ask(booking, (part, 2))
    with pytest.raises(ValidationError) as excinfo:
        ask(booking, (part, 2))
    assert lines_problem(excinfo) == f"Only 1 unit of {part.name} can be returned"
    # Approved and refunded returns still count; a rejected one gives its units back.
    services.return_decide(ret=first, state="approved")
    with pytest.raises(ValidationError):
        ask(booking, (part, 2))
    second = ask(booking, (part, 1))
    services.return_decide(ret=second, state="rejected", comment="Used")
    third = ask(booking, (part, 1))
    receive(third)
    with pytest.raises(ValidationError):
        ask(booking, (part, 1))


def test_a_part_listed_twice_is_refused(user):
    booking = shipped_order(user, [("10.00", 3)])
    (part,) = parts_of(booking)
    with pytest.raises(ValidationError) as excinfo:
        ask(booking, (part, 1), (part, 1))
    assert lines_problem(excinfo) == f"Part {part.pk} is listed twice"


# Deciding and receiving.


def test_only_a_requested_return_is_decided(user):
    booking = shipped_order(user, [("10.00", 3)])
    ret = ask(booking, (parts_of(booking)[0], 1))
    rejected = services.return_decide(ret=ret, state="rejected", comment=" Worn ")
    assert (rejected.state, rejected.admin_comment) == ("rejected", "Worn")
    assert rejected.decided_at is not None
    with pytest.raises(Conflict) as excinfo:
        services.return_decide(ret=ret, state="approved")
    assert excinfo.value.message == "This return was rejected already"


def test_only_an_approved_return_is_received(user):
    booking = shipped_order(user, [("10.00", 3)])
    ret = ask(booking, (parts_of(booking)[0], 1))
    with pytest.raises(Conflict) as excinfo:
        services.return_receive(ret=ret, restock=True)
    assert excinfo.value.message == "Only an approved return can be received; this one is requested"
    done = receive(ret)
    with pytest.raises(Conflict):
        services.return_receive(ret=done, restock=True)


def test_receiving_refunds_the_share_and_restocks_when_asked(user):
    booking = shipped_order(user, [("10.00", 2), ("30.00", 1)], discount="10.00", shipping="5.00")
    brake, chain = parts_of(booking)
    ret = receive(ask(booking, (brake, 2)), restock=True)
    assert (ret.state, ret.refund_amount, ret.restocked) == ("refunded", D("16.00"), True)
    assert Part.objects.get(pk=brake.pk).available_quantity == 12
    movement = StockMovement.objects.filter(part=brake).latest("id")
    assert (movement.change, movement.order_id, movement.note) == (
        2,
        booking.pk,
        f"Return #{ret.pk}",
    )
    booking.refresh_from_db()
    assert booking.refunded_amount == D("16.00")
    assert booking.state == Booking.State.SHIPPED  # refunded only when all of it is
    # The rest without restocking: the remainder, shipping included; the order is refunded.
    last = receive(ask(booking, (chain, 1)), restock=False)
    assert (last.refund_amount, last.restocked) == (D("29.00"), False)
    assert Part.objects.get(pk=chain.pk).available_quantity == 10
    booking.refresh_from_db()
    assert booking.refunded_amount == booking.total_price == D("45.00")
    assert booking.state == Booking.State.REFUNDED


def test_a_refunded_order_takes_no_return_and_no_receive(user):
    booking = shipped_order(user, [("10.00", 3)])
    (part,) = parts_of(booking)
    approved = services.return_decide(ret=ask(booking, (part, 1)), state="approved")
    services.booking_refund(booking=booking, outside_stripe=True)
    booking.refresh_from_db()
    assert booking.refunded_amount == booking.total_price
    with pytest.raises(Conflict) as excinfo:
        services.return_receive(ret=approved, restock=True)
    assert excinfo.value.message == services.ORDER_REFUNDED
    with pytest.raises(Conflict):
        ask(booking, (part, 1))


def test_every_step_is_mailed_to_the_shopper(user):
    booking = shipped_order(user, [("10.00", 2), ("30.00", 1)])
    brake, _ = parts_of(booking)
    ret = ask(booking, (brake, 1), comment="Wrong size")
    services.return_decide(ret=ret, state="approved")
    services.return_receive(ret=ret, restock=True)
    other = ask(booking, (brake, 1))
    services.return_decide(ret=other, state="rejected", comment="Fitted and worn")
    mails = list(Email.objects.order_by("id"))
    assert [mail.subject for mail in mails] == [
        f"Order #{booking.pk}: return #{ret.pk} requested",
        f"Order #{booking.pk}: return #{ret.pk} approved, send the parts back",
        f"Order #{booking.pk}: return #{ret.pk} refunded, $10.00",
        f"Order #{booking.pk}: return #{other.pk} requested",
        f"Order #{booking.pk}: return #{other.pk} rejected",
    ]
    assert all(mail.to == [user.email] for mail in mails)
    assert f"1 × {brake.name}" in mails[0].message
    assert "It doesn't fit my bike" in mails[0].message
    assert "$10.00 goes back to the card" in mails[2].message
    assert "Fitted and worn" in mails[4].message
    assert f"/dashboard/orders/{booking.pk}" in mails[4].html_message


def test_the_return_states_hold_units(user):
    assert set(Return.HOLDING) == {"requested", "approved", "refunded"}


def test_a_refund_in_full_after_a_return_mails_the_rest(user):
    booking = shipped_order(user, [("10.00", 2), ("30.00", 1)], shipping="5.00")
    brake, _ = parts_of(booking)
    receive(ask(booking, (brake, 1)))
    services.booking_refund(booking=booking, outside_stripe=True)
    mail = Email.objects.filter(subject=f"Order #{booking.pk} refunded").get()
    assert "refunded the rest of your order: $45.00 (after $10.00 for returned parts)" in (
        mail.message
    )


def test_each_step_is_on_the_orders_timeline(user):
    booking = shipped_order(user, [("10.00", 2), ("30.00", 1)])
    brake, _ = parts_of(booking)
    ret = ask(booking, (brake, 1))
    services.return_decide(ret=ret, state="approved")
    services.return_receive(ret=ret, restock=True)
    other = ask(booking, (brake, 1), reason="other")
    services.return_decide(ret=other, state="rejected", comment="Worn")
    booking.refresh_from_db()
    steps = [(e["kind"], e["text"], e["amount"]) for e in booking.events]
    assert steps == [
        (
            "return_requested",
            f"Return #{ret.pk} requested: 1 × {brake.name} (It doesn't fit my bike)",
            None,
        ),
        ("return_approved", f"Return #{ret.pk} approved", None),
        ("return_refunded", f"Refunded $10.00 for return #{ret.pk}", "10.00"),
        ("return_requested", f"Return #{other.pk} requested: 1 × {brake.name} (Other)", None),
        ("return_rejected", f"Return #{other.pk} rejected: Worn", None),
    ]
    services.booking_refund(booking=booking, outside_stripe=True)
    booking.refresh_from_db()
    assert booking.events[-1]["text"] == "Refunded $40.00"  # the rest, not the whole total


def test_an_order_is_refunded_only_when_every_unit_came_back_even_at_zero(user):
    free = shipped_order(user, [("10.00", 2)], discount="20.00")
    assert free.total_price == 0
    (part,) = parts_of(free)
    first = receive(ask(free, (part, 1)))
    assert first.refund_amount == 0
    free.refresh_from_db()
    assert free.state == Booking.State.SHIPPED
    receive(ask(free, (part, 1)))
    free.refresh_from_db()
    assert free.state == Booking.State.REFUNDED
