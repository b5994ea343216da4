"""Order pages: My Order, Manage Orders (admin) and the payment page."""

from django.shortcuts import render

from shop.decorators import login_required, shop_admin_required


@login_required
def my_orders(request):
    return render(request, "dashboard/myorder.html")


@shop_admin_required
def manage_orders(request):
    return render(request, "dashboard/manageorders.html")


@login_required
def payment(request, pk):
    return render(request, "dashboard/payment.html")
