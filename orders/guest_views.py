"""A guest's order's pages, opened by its private key (no account): the order's page
`/orders/{id}/{key}`, which shows it and pays it, and its invoice; and "Find my order"
(`/orders/find`), which mails that link again. Personal: never kept in a cache; the key
never leaves the shop's origin (SECURE_REFERRER_POLICY "same-origin")."""

from django.conf import settings
from django.http import Http404
from django.shortcuts import redirect, render
from django.utils.cache import patch_cache_control
from django.views.decorators.http import require_POST

from core.island_props import island_props
from core.page_forms import validate
from core.throttles import page_wait

from . import payments, selectors, services
from .invoices import invoice_context
from .models import Booking
from .serializers import FindOrderInputSerializer, guest_booking_json
from .throttles import GuestFindThrottle
from .views import minutes_to_pay, pay_url, return_from_form, returns_context, timeline_rows

FIND_ANSWER = "If an order matches, we have e-mailed its link."
FIND_REFUSED = "Too many tries from your address in a short time. Please try again later."
GUEST_LAYOUT = "orders/guest_base.html"


def _private(response):
    patch_cache_control(response, private=True, no_store=True)
    return response


def _guest_booking(request, pk: int, key: str) -> Booking:
    booking = selectors.booking_for(user=request.user, pk=pk, key=key)
    if booking is None:
        raise Http404
    return booking


def guest_order_page(request, pk, key):
    """The guest's order (as /dashboard/orders/{id} shows an account's) and, while it can be
    paid, the card form (the payment island, calling the API with `?key=`); a wrong key, or
    no such order, is a 404."""
    booking = _guest_booking(request, pk, key)
    payable = pay_url(booking) is not None
    props = None
    if payable:
        props = island_props(
            booking=guest_booking_json(booking),
            user={"name": booking.name, "email": booking.email},
            publishableKey=settings.STRIPE_PUBLISHABLE_KEY,
            guestKey=key,
            embedded=True,
        )
    action = f"{booking.guest_path}/returns"
    context = {
        **returns_context(request, booking, own=True, action=action),
        "layout": GUEST_LAYOUT,
        "guest": True,
        "booking": booking,
        "state_label": Booking.State(booking.state).label,
        "minutes_left": minutes_to_pay(booking),
        "payments_on": payments.is_configured(),
        "payable": payable,
        "invoice_url": f"{booking.guest_path}/invoice" if booking.invoice_number else None,
        "timeline": timeline_rows(booking, internal=False),  # the shopper's: no internal notes
        "can_add_note": False,
        "not_configured": payments.NOT_CONFIGURED,
        "props": props,
        "STRIPE_JS_URL": settings.STRIPE_JS_URL,
    }
    return _private(render(request, "dashboard/order.html", context))


@require_POST
def guest_order_return(request, pk, key):
    """ "Return items" on the guest's order page (as order_return for an account's order)."""
    booking = _guest_booking(request, pk, key)
    return_from_form(request, booking)
    return redirect(booking.guest_path)


def guest_invoice(request, pk, key):
    """The guest's order's invoice, made to print (a wrong key, or not paid: 404)."""
    booking = _guest_booking(request, pk, key)
    if not booking.invoice_number:
        raise Http404
    return _private(render(request, "orders/invoice.html", invoice_context(booking)))


def find_order_page(request):
    """GET: the form (order number, e-mail). POST: the same sentence whatever matched
    (services.booking_find_mail mails the link only when they match); a field left wrong is
    the form again with its message (400); past THROTTLE_GUEST_ORDERS' rate from one client
    address, 429 and nothing mailed."""
    values, errors, status, answered = {}, {}, 200, False
    if request.method == "POST":
        values = request.POST
        wait = page_wait(request, GuestFindThrottle())
        if wait is not None:
            response = render(
                request,
                "orders/find.html",
                {"values": values, "errors": {"throttle": [FIND_REFUSED]}},
                status=429,
            )
            response["Retry-After"] = str(wait)
            return _private(response)
        data, errors = validate(FindOrderInputSerializer, request.POST)
        if data is None:
            status = 400
        else:
            services.booking_find_mail(order_id=data["order"], email=data["email"])
            answered, values = True, {}
    context = {"values": values, "errors": errors, "answered": answered, "answer": FIND_ANSWER}
    return _private(render(request, "orders/find.html", context, status=status))
