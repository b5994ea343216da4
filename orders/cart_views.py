"""The cart's pages: /cart (anyone: the account's or the visitor's cart) and /checkout (signed
in; a visitor signs in or signs up first and keeps the cart, or continues as a guest). Both
are personal: never kept in a cache. Viewing them creates nothing: no cart, no session."""

from django.conf import settings
from django.shortcuts import redirect, render
from django.templatetags.static import static
from django.urls import reverse
from django.utils.cache import patch_cache_control
from django_countries import countries

from accounts.addresses import address_as_dict, address_list_of
from core.island_props import island_props
from pricing.serializers import ShippingChoiceSerializer

from . import payments
from .cart_requests import cart_of_request, cart_read_for
from .selectors import last_ship_to
from .selectors.shipping import cart_priced_lines, shipping_choices

PLACEHOLDER = "img/parts/placeholder.svg"  # a line whose part has no image shows it


def _private(response):
    patch_cache_control(response, private=True, no_store=True)
    return response


def _back_here(name: str) -> str:
    """The sign-in or sign-up page, which comes back to /checkout."""
    return f"{reverse(name)}?next={reverse('checkout')}"


def cart_page(request):
    """The cart's lines, each with its quantity field and Remove, the total and Checkout."""
    contents = cart_read_for(request, cart=cart_of_request(request))
    props = island_props(cart=contents, placeholder=static(PLACEHOLDER))
    return _private(render(request, "orders/cart.html", {"props": props, "cart": contents}))


def checkout_page(request):
    """The lines, where the order goes (the saved addresses, the default picked, or a new
    one), the methods that deliver there with the order's breakdown by each, and Place order,
    which goes on to pay the new order (its payment page; its own page when card payments
    are not configured); an empty cart sends the shopper back to /cart. A visitor chooses
    first: sign in, create an account (both come back here), or continue as a guest (an
    e-mail and a new address; the guest's order's private page pays it)."""
    cart = cart_of_request(request)
    contents = cart_read_for(request, cart=cart)
    if not contents["lines"]:
        return _private(redirect("cart"))
    guest = not request.user.is_authenticated
    user = None if guest else request.user
    saved = [] if guest else [address_as_dict(a) for a in address_list_of(request.user)]
    # A new address starts as the last order's (BEYOND.md: filled with the shopper's last).
    last = {} if guest else last_ship_to(user=user)
    shop = {"country": settings.SHOP_COUNTRY, "region": ""}
    where = saved[0] if saved else {**shop, **last} if last.get("country") else shop
    choices = shipping_choices(
        lines=cart_priced_lines(cart=cart),
        user=user,
        country=where["country"],
        region=where["region"],
        voucher=cart.voucher,
    )
    props = island_props(
        cart=contents,
        addresses=saved,
        lastShipTo=last,
        methods=ShippingChoiceSerializer(choices, many=True).data,
        countries=[{"code": code, "name": name} for code, name in countries],
        shopCountry=settings.SHOP_COUNTRY,
        cardPayments=payments.is_configured(),
        guest=guest,
        loginUrl=_back_here("login"),
        signupUrl=_back_here("signup"),
    )
    return _private(render(request, "orders/checkout.html", {"props": props, "cart": contents}))
