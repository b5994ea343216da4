"""Order pages: My Order, an order's page and its invoice, the owner's Overview and Manage
Orders (admin), the payment page."""

import math
from collections import Counter

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.core.paginator import Paginator
from django.http import Http404, QueryDict
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.views.decorators.http import require_POST

from catalog.garage import garage_active_for
from catalog.selectors import CATALOG
from core.api import get_or_404
from core.caching.pages import cache_page_per_session, keep_page_for
from core.caching.versions import TIMEOUT
from core.errors import ShopError
from core.island_props import island_props
from core.page_guards import shop_admin_required
from core.templatetags.money import money

from . import payments, selectors, services
from .invoices import invoice_context
from .models import Booking, Return
from .review_links import FIT_QUESTION, fit_question_links
from .serializers import (
    BookingFilterSerializer,
    BookingNoteInputSerializer,
    BookingOutputSerializer,
    ReturnDecisionInputSerializer,
    ReturnFilterSerializer,
    ReturnInputSerializer,
    StatsOutputSerializer,
    booking_json,
    bookings_json,
)
from .services import ORDER_EXPIRED
from .stats import shop_stats

OVERVIEW_DAYS = 30
NOTE_ADDED = "Note added."


def pay_url(booking) -> str | None:
    """The page where an order is paid by card, while it can be (unpaid and held, card payments
    on); None otherwise. Only its owner may open it."""
    payable = booking.state == Booking.State.UNPAID and payments.is_configured()
    return reverse("payment", args=[booking.pk]) if payable else None


def orders_props(bookings) -> dict:
    """Props of My Order: the bookings as GET /api/booking answers them, and the payment page
    of each one that can be paid now, by id (no Pay button is offered for the others)."""
    return island_props(
        orders=bookings_json(bookings),
        payUrls={booking.pk: url for booking in bookings if (url := pay_url(booking))},
    )


def minutes_to_pay(booking) -> int:
    """Whole minutes left (rounded up) before an unpaid order's hold lapses; 0 when none."""
    if booking.state != Booking.State.UNPAID or booking.expires_at is None:
        return 0
    seconds = (booking.expires_at - timezone.now()).total_seconds()
    return max(0, math.ceil(seconds / 60))


def seconds_while_minutes_left_hold(booking) -> int:
    """Whole seconds before an order's minutes left to pay next change (and with them, at
    the last, its state); TIMEOUT when it has none."""
    if booking.state != Booking.State.UNPAID or booking.expires_at is None:
        return TIMEOUT
    seconds = (booking.expires_at - timezone.now()).total_seconds()
    return math.floor(seconds - 60 * (math.ceil(seconds / 60) - 1))


def _booking_or_404(request, pk: int, *, own: bool = False) -> Booking:
    """The order of the signed-in asker (selectors.booking_for: its own, or any for shop
    admins; with `own`, only its own), else 404. A guest's order's pages are guest_views'."""
    booking = selectors.booking_for(user=request.user, pk=pk, own=own)
    if booking is None:
        raise Http404
    return booking


@login_required
@cache_page_per_session(selectors.CACHE, CATALOG)
def order_page(request, pk):
    """One order's page (owner or shop admin; anyone else, or no such order: 404)."""
    booking = _booking_or_404(request, pk)
    keep_page_for(request, seconds_while_minutes_left_hold(booking))
    own = booking.user_id == request.user.pk
    payments_on = payments.is_configured() and own
    context = {
        **returns_context(request, booking, own=own),
        "booking": booking,
        "state_label": Booking.State(booking.state).label,
        "minutes_left": minutes_to_pay(booking),
        "payments_on": payments_on,
        "invoice_url": reverse("invoice", args=[booking.pk]) if booking.invoice_number else None,
        "timeline": timeline_rows(booking, internal=request.user.is_shop_admin),
        "can_add_note": request.user.is_shop_admin,
        "not_configured": payments.NOT_CONFIGURED,
        # "Did it fit your bike?" (its shopper's, once shipped): the active bike filled in.
        "fit_question": FIT_QUESTION,
        "fit_links": fit_question_links(booking, garage_active_for(request)) if own else [],
        "props": island_props(
            order=booking_json(booking, internal=request.user.is_shop_admin),
            payUrl=pay_url(booking) if own else None,
        ),
    }
    return render(request, "dashboard/order.html", context)


def timeline_rows(booking, *, internal: bool) -> list[dict]:
    """The order's Timeline as its page lists it: each step with its moment as a datetime."""
    return [
        {**event, "at": parse_datetime(event["at"])}
        for event in booking.timeline(internal=internal)
    ]


@shop_admin_required
@require_POST
def order_note(request, pk):
    """Add note (the order page's form, shop admins): to the shopper, or internal."""
    booking = get_or_404(selectors.booking_list(), pk)
    form = BookingNoteInputSerializer(data=request.POST)
    if form.is_valid():
        services.booking_note_add(booking=booking, by=request.user, **form.validated_data)
        messages.success(request, NOTE_ADDED)
    else:
        messages.error(request, form.errors["text"][0])
    return redirect("order", pk=booking.pk)


@login_required
def invoice(request, pk):
    """An order's invoice, made to print (its owner or a shop admin; anyone else, no such
    order, or an order not paid: 404)."""
    booking = _booking_or_404(request, pk)
    if not booking.invoice_number:
        raise Http404
    return render(request, "orders/invoice.html", invoice_context(booking))


def seconds_until_a_hold_lapses(bookings) -> int:
    """Whole seconds (rounded down, at most TIMEOUT) before the first unpaid hold among
    `bookings` lapses and its state changes with time alone."""
    now = timezone.now()
    holds = [b.expires_at for b in bookings if b.state == Booking.State.UNPAID and b.expires_at]
    if not holds:
        return TIMEOUT
    return max(0, min(TIMEOUT, math.floor((min(holds) - now).total_seconds())))


@login_required
@cache_page_per_session(selectors.CACHE, CATALOG)
def my_orders(request):
    """My Order: the signed-in user's orders (the same list as GET /api/booking?email=…)."""
    bookings = list(selectors.booking_list_of(user=request.user))
    keep_page_for(request, seconds_until_a_hold_lapses(bookings))
    return render(request, "dashboard/myorder.html", {"props": orders_props(bookings)})


@shop_admin_required
def overview(request):
    """Overview: the owner's figures as charts (the same data as GET /api/stats)."""
    stats = StatsOutputSerializer(shop_stats(days=OVERVIEW_DAYS)).data
    props = island_props(stats=stats, days=OVERVIEW_DAYS)
    return render(request, "dashboard/overview.html", {"props": props})


@shop_admin_required
def manage_orders(request):
    """Manage Orders: 50 orders a page (?page=N), newest first, narrowed by `state` and `q`
    as GET /api/bookings is; the page links and "Download CSV" keep the filters."""
    query = BookingFilterSerializer(data=request.GET)
    filters = query.filters() if query.is_valid() else {"state": "", "q": ""}
    page = selectors.booking_page(**filters, page=request.GET.get("page", 1))
    kept = QueryDict(mutable=True)
    kept.update({name: value for name, value in filters.items() if value})
    searching = bool(kept)
    props = island_props(
        orders=bookings_json(page.items, internal=True),
        first=page.first_position,
        searching=searching,
    )
    context = {
        "props": props,
        "page": page,
        "ellipsis": Paginator.ELLIPSIS,
        "form": request.GET,
        "errors": query.errors,
        "states": Booking.State.choices,
        "searching": searching,
        "query": kept.urlencode(),
        "csv_url": reverse("booking-csv") + (f"?{kept.urlencode()}" if kept else ""),
    }
    return render(request, "dashboard/manageorders.html", context)


def payment_props(booking, user) -> dict:
    """Props of the payment island: the order as the API answers it, who pays, Stripe's key."""
    return island_props(
        booking=BookingOutputSerializer(booking).data,
        user={"name": user.get_full_name(), "email": user.email},
        publishableKey=settings.STRIPE_PUBLISHABLE_KEY,
    )


@login_required
def payment(request, pk):
    """Pay for one of your orders by card; paid orders and an unconfigured shop get no form."""
    booking = _booking_or_404(request, pk, own=True)
    payable = pay_url(booking) is not None
    context = {
        "booking": booking,
        "not_configured": payments.NOT_CONFIGURED,
        "expired": ORDER_EXPIRED,
        "payable": payable,
        "props": payment_props(booking, request.user) if payable else None,
        "STRIPE_JS_URL": settings.STRIPE_JS_URL,
    }
    return render(request, "dashboard/payment.html", context)


def returns_context(request, booking, *, own: bool, action: str = "") -> dict:
    """The order page's returns: each with its state, and "Return items" (the lines with
    units left to return, the reasons) for its shopper while the order can be returned. The
    page is kept no longer than the return window lasts."""
    returns = selectors.returns_of(booking=booking)
    returnable_lines = []
    if own and services.returnable(booking):
        ends = services.return_window_ends(booking)
        keep_page_for(request, (ends - timezone.now()).total_seconds())
        out = Counter()  # the units counted as returned (Return.HOLDING), by line
        for ret in returns:
            if ret.state in Return.HOLDING:
                out.update({line.booking_line_id: line.quantity for line in ret.lines.all()})
        for line in booking.lines.all():
            left = line.quantity - out.get(line.pk, 0)
            if line.part_id is not None and left > 0:
                returnable_lines.append((line, left))
    return {
        "returns": returns,
        "returnable_lines": returnable_lines,
        "return_reasons": Return.Reason.choices,
        "return_window_ends": services.return_window_ends(booking),
        # Where "Return items" posts: the account's order_return, or a guest's by its key.
        "return_action": action or reverse("order-return", args=[booking.pk]),
    }


def _first_problem(errors) -> str:
    """The first message of a serializer's or a service's errors, for a toast."""
    if isinstance(errors, dict):
        return _first_problem(next(iter(errors.values()), ""))
    if isinstance(errors, list):
        return _first_problem(errors[0]) if errors else ""
    return str(errors)


@login_required
@require_POST
def order_return(request, pk):
    """ "Return items" on the order page: the units chosen of each line (`units-<partId>`), a
    reason and a comment; as POST /api/booking/{id}/returns (the same rules and messages),
    then back to the order page with what happened."""
    booking = _booking_or_404(request, pk, own=True)
    return_from_form(request, booking)
    return redirect("order", pk=booking.pk)


def return_from_form(request, booking) -> None:
    """Request the return that "Return items" (the POST) asks of `booking`, with the rules and
    messages of POST /api/booking/{id}/returns; what happened is said as a toast."""
    lines = []
    for name, value in request.POST.items():
        if name.startswith("units-") and value.strip() not in ("", "0"):
            part, units = name.removeprefix("units-"), value.strip()
            lines.append(
                {
                    "partId": int(part) if part.isdigit() else part,
                    "quantity": int(units) if units.isdigit() else units,
                }
            )
    data = ReturnInputSerializer(
        data={
            "lines": lines,
            "reason": request.POST.get("reason", ""),
            "comment": request.POST.get("comment", ""),
        }
    )
    try:
        if not data.is_valid():
            raise ValidationError(_first_problem(data.errors))
        fields = data.validated_data
        ret = services.return_request(
            booking=booking,
            lines=fields["lines"],
            reason=fields["reason"],
            comment=fields.get("comment", ""),
        )
    except ValidationError as exc:
        messages.error(request, _first_problem(getattr(exc, "message_dict", exc.messages)))
    except ShopError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, f"Return #{ret.pk} requested: we will e-mail you our answer.")


@shop_admin_required
def returns_page(request):
    """Returns (admin): every return, newest first, narrowed by `state`, with "Approve",
    "Reject" and "Received" (with "Put back in stock")."""
    query = ReturnFilterSerializer(data=request.GET)
    state = query.validated_data.get("state", "") if query.is_valid() else ""
    context = {
        "returns": selectors.return_list(state=state)[:RETURNS_SHOWN],
        "state": state,
        "states": Return.State.choices,
        "shown": RETURNS_SHOWN,
    }
    return render(request, "dashboard/returns.html", context)


RETURNS_SHOWN = 200  # the newest; GET /api/returns lists them all


@shop_admin_required
@require_POST
def return_approve(request, pk):
    """ "Approve" on the Returns page."""
    return _return_action(request, pk, "approve")


@shop_admin_required
@require_POST
def return_reject(request, pk):
    """ "Reject" on the Returns page, with a comment to the shopper."""
    return _return_action(request, pk, "reject")


@shop_admin_required
@require_POST
def return_receive(request, pk):
    """ "Received" on the Returns page, with "Put back in stock"."""
    return _return_action(request, pk, "receive")


def _return_action(request, pk, action):
    """One button of the Returns page: approve, reject (with a comment) or receive (with
    "Put back in stock"); then back to the page with what happened."""
    ret = get_or_404(selectors.return_list(), pk)
    try:
        if action == "receive":
            ret = services.return_receive(ret=ret, restock=request.POST.get("restock") == "on")
            done = f"Return #{ret.pk} received: refunded {money(ret.refund_amount)}."
        else:
            state = "approved" if action == "approve" else "rejected"
            data = ReturnDecisionInputSerializer(
                data={"state": state, "comment": request.POST.get("comment", "")}
            )
            if not data.is_valid():
                raise ValidationError(_first_problem(data.errors))
            ret = services.return_decide(
                ret=ret, state=state, comment=data.validated_data.get("comment", "")
            )
            done = f"Return #{ret.pk} {state}."
    except ValidationError as exc:
        messages.error(request, _first_problem(exc.messages))
    except ShopError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, done)
    back = reverse("returns")
    state = request.POST.get("state", "")
    return redirect(f"{back}?state={state}" if state in Return.State.values else back)
