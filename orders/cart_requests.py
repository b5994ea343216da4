"""Where a request's cart lives, for the cart's endpoints and pages: the signed-in account's,
else the one a visitor's session names. Reading never creates a cart or a session: a visitor's
cart is made by the first addition (orders.services.cart_add), and only then does the session
keep its id."""

from .models import Cart
from .selectors.cart import cart_read

SESSION_KEY = "cart"  # where a visitor's session keeps its cart's id (kept across sign-in)


def cart_of_request(request) -> Cart | None:
    """The asker's cart: the signed-in account's, else the one the visitor's session names;
    None when there is none yet."""
    user = request.user
    carts = Cart.objects.select_related("voucher")
    if user.is_authenticated:
        return carts.filter(user=user).first()
    cart_id = request.session.get(SESSION_KEY)
    return carts.filter(pk=cart_id, user__isnull=True).first() if cart_id else None


def cart_keep(request, cart: Cart) -> None:
    """A visitor's session names its cart (made by their first addition) from now on."""
    if not request.user.is_authenticated and request.session.get(SESSION_KEY) != cart.pk:
        request.session[SESSION_KEY] = cart.pk


def cart_read_for(request, *, cart: Cart | None) -> dict:
    """cart_read for the caller of a page or API request: warned against their active bike."""
    return cart_read(cart=cart, user=request.user, session=request.session)
