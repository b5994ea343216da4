"""The cart's pages: /cart (anyone: the account's or the visitor's cart) and /checkout (signed
in; a visitor signs in first and keeps the cart). Both are personal: never kept in a cache.
Viewing them creates nothing: no cart, no session."""

from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.templatetags.static import static
from django.utils.cache import patch_cache_control
from django_countries import countries

from accounts.addresses import address_as_dict, address_list_of
from core.island_props import island_props
from pricing.serializers import ShippingChoiceSerializer

from . import payments
from .cart_requests import cart_of_request, cart_read_for
from .selectors.shipping import cart_priced_lines, shipping_choices

PLACEHOLDER = "img/parts/placeholder.svg"  # a line whose part has no image shows it


def _private(response):
    patch_cache_control(response, private=True, no_store=True)
    return response


def cart_page(request):
    """The cart's lines, each with its quantity field and Remove, the total and Checkout."""
    contents = cart_read_for(request, cart=cart_of_request(request))
    props = island_props(cart=contents, placeholder=static(PLACEHOLDER))
    return _private(render(request, "orders/cart.html", {"props": props, "cart": contents}))


@login_required
def checkout_page(request):
    """The lines, where the order goes (the saved addresses, the default picked, or a new
    one), the methods that deliver there with the order's breakdown by each, and Place order,
    which goes on to pay the new order (its payment page; its own page when card payments
    are not configured); an empty cart sends the shopper back to /cart."""
    cart = cart_of_request(request)
    contents = cart_read_for(request, cart=cart)
    if not contents["lines"]:
        return _private(redirect("cart"))
    saved = [address_as_dict(address) for address in address_list_of(request.user)]
    where = saved[0] if saved else {"country": settings.SHOP_COUNTRY, "region": ""}
    choices = shipping_choices(
        lines=cart_priced_lines(cart=cart),
        user=request.user,
        country=where["country"],
        region=where["region"],
        voucher=cart.voucher,
    )
    props = island_props(
        cart=contents,
        addresses=saved,
        methods=ShippingChoiceSerializer(choices, many=True).data,
        countries=[{"code": code, "name": name} for code, name in countries],
        shopCountry=settings.SHOP_COUNTRY,
        cardPayments=payments.is_configured(),
    )
    return _private(render(request, "orders/checkout.html", {"props": props, "cart": contents}))
