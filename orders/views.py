"""Order pages: My Order, Manage Orders (admin) and the payment page."""

from django.shortcuts import render

from shop.decorators import login_required, shop_admin_required
from shop.props import island_props

from . import selectors
from .serializers import BookingOutputSerializer


def orders_props(bookings) -> dict:
    """Props of the order tables: the bookings as GET /api/booking answers them."""
    return island_props(orders=BookingOutputSerializer(bookings, many=True).data)


@login_required
def my_orders(request):
    """My Order: the signed-in user's orders (the same list as GET /api/booking?email=…)."""
    props = orders_props(selectors.booking_list(email=request.user.email))
    return render(request, "dashboard/myorder.html", {"props": props})


@shop_admin_required
def manage_orders(request):
    """Manage Orders: every order (the same list as GET /api/bookings)."""
    props = orders_props(selectors.booking_list())
    return render(request, "dashboard/manageorders.html", {"props": props})


@login_required
def payment(request, pk):
    return render(request, "dashboard/payment.html")
