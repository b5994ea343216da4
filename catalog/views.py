"""Catalog pages: All Parts, the purchase page, and the admin's Manage Parts and Add parts."""

from django.shortcuts import render

from shop.decorators import login_required, shop_admin_required


def allparts(request):
    return render(request, "catalog/allparts.html")


@login_required
def purchase(request, pk):
    return render(request, "catalog/purchase.html")


@shop_admin_required
def manage_parts(request):
    return render(request, "dashboard/manageparts.html")


@shop_admin_required
def add_parts(request):
    return render(request, "dashboard/addparts.html")
