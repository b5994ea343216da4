"""The cart's pages: /cart (anyone: the account's or the visitor's cart) and /checkout (signed
in; a visitor signs in first and keeps the cart). Both are personal: never kept in a cache.
Viewing them creates nothing: no cart, no session."""

from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.templatetags.static import static
from django.utils.cache import patch_cache_control

from core.island_props import island_props

from . import payments
from .cart_requests import cart_of_request, cart_read_for
from .selectors.cart import checkout_defaults

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
    """The lines and total, where the order goes (the last order's address and phone first),
    and Place order, which goes on to pay the new order (its payment page; its own page when
    card payments are not configured); an empty cart sends the shopper back to /cart."""
    contents = cart_read_for(request, cart=cart_of_request(request))
    if not contents["lines"]:
        return _private(redirect("cart"))
    props = island_props(
        cart=contents,
        cardPayments=payments.is_configured(),
        **checkout_defaults(user=request.user),
    )
    return _private(render(request, "orders/checkout.html", {"props": props, "cart": contents}))
