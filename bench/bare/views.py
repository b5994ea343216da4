"""The two yardstick views: what Django does at best for a read, and for a write that locks
one row and inserts one (the least an order can cost)."""

import json

from django.db import transaction
from django.http import HttpResponse, JsonResponse
from django.views.decorators.csrf import csrf_exempt

from .models import Order, Shelf

SHELF_ID = 1


def ok(request):
    return HttpResponse("ok", content_type="text/plain")


@csrf_exempt  # the shop's API takes bearer tokens, not cookies
def order(request):
    """POST the shop's order body: lock the shelf's row, insert an order, answer 201."""
    body = json.loads(request.body)
    with transaction.atomic():
        shelf = Shelf.objects.select_for_update().get(pk=SHELF_ID)
        placed = Order.objects.create(
            shelf=shelf,
            quantity=int(body["quantity"]),
            address=body["address"],
            phone=body["phone"],
        )
    return JsonResponse({"_id": placed.pk}, status=201)
