"""The yardstick views: what Django does at best for a read, for a write that locks one row
and inserts one (the least an order can cost), and for a search: the shop's full-text query
on the shop's own database, 24 names written."""

import json

from django.db import connections, transaction
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


# The shop's search query (catalog/search.py, PartSearch: a page of 24 by rank, with the total
# on each row) for `q` and a highest price, as wrk.lua asks it.
SEARCH = """
SELECT p.id, p.name, p.img, p.description, p.price, p.minimum_order_quantity,
       p.available_quantity, p.category_id, c.id, c.name, c.slug,
       ts_rank(p.search_vector, plainto_tsquery('english'::regconfig, %(q)s)) AS rank,
       COUNT(*) OVER ()
FROM catalog_part p LEFT OUTER JOIN catalog_category c ON p.category_id = c.id
WHERE p.price <= %(max)s
  AND p.search_vector @@ replace(plainto_tsquery('english'::regconfig, %(q)s)::text, '&', '|')::tsquery
  AND ts_rank(p.search_vector, plainto_tsquery('english'::regconfig, %(q)s)) > 0
ORDER BY rank DESC, p.created_at DESC, p.id DESC
LIMIT 24
"""


def search(request):
    """GET ?q=WORD&maxPrice=N: the shop's search on its database, the names one a line."""
    params = {"q": request.GET.get("q", ""), "max": request.GET.get("maxPrice", "0")}
    with connections["shop"].cursor() as cursor:
        cursor.execute(SEARCH, params)
        names = [row[1] for row in cursor.fetchall()]
    return HttpResponse("\n".join(names), content_type="text/plain")
