"""Account pages: sign-in, sign-up, sign-out (allauth's views), My Profile, Addresses,
All Users."""

from http import HTTPStatus

from allauth.account import views as allauth_views
from allauth.account.adapter import get_adapter
from allauth.account.models import EmailAddress
from django.contrib import messages
from django.contrib.auth import REDIRECT_FIELD_NAME
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import NON_FIELD_ERRORS, ValidationError
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_POST
from django_countries import countries

from core.api import get_or_404
from core.errors import NotFound
from core.island_props import island_props
from core.page_forms import handle_form, validate
from core.page_guards import shop_admin_required

from . import addresses, selectors, services
from .serializers import AddressInputSerializer, ProfileInputSerializer, UserOutputSerializer


class LoginView(allauth_views.LoginView):
    """allauth's sign-in. Once too many attempts failed, the form says so with HTTP 429."""

    template_name = "account/login.html"

    def form_invalid(self, form):
        response = super().form_invalid(form)
        if form.has_error(NON_FIELD_ERRORS, "too_many_login_attempts"):
            response.status_code = HTTPStatus.TOO_MANY_REQUESTS
        return response


class EmailView(allauth_views.EmailView):
    """allauth's e-mail page (/accounts/email/), where only a verified address can become the
    account's sign-in address. allauth lets an account with no verified address make any of
    its addresses primary, and a sign-up's address is not verified: a pending address would
    take over the account, and its mail, unproved."""

    def post(self, request, *args, **kwargs):
        if "action_primary" in request.POST and not self._verified(request.POST.get("email")):
            get_adapter().add_message(
                request, messages.ERROR, "account/messages/unverified_primary_email.txt"
            )
            return redirect("account_email")
        return super().post(request, *args, **kwargs)

    def _verified(self, email) -> bool:
        addresses = EmailAddress.objects.filter(user=self.request.user, verified=True)
        return addresses.filter(email__iexact=email or "").exists()


login = LoginView.as_view()
signup = allauth_views.SignupView.as_view(template_name="account/signup.html")
logout = allauth_views.LogoutView.as_view()
email = EmailView.as_view()


PROFILE_UPDATED = "user updated"
PROFILE_FIELDS = ("education", "location", "phone", "linkedin")


@login_required
def profile(request):
    """My Profile: the user's details and the form that updates them (the API's rules)."""
    done, context = handle_form(
        request,
        ProfileInputSerializer,
        save=lambda data: services.user_update_profile(user=request.user, **data),
        success=PROFILE_UPDATED,
        initial={field: getattr(request.user, field) for field in PROFILE_FIELDS},
    )
    return done or render(request, "dashboard/profile.html", context)


ADDRESS_ADDED = "Address added"
ADDRESS_UPDATED = "Address updated"
ADDRESS_MADE_DEFAULT = "Default address changed"
ADDRESS_DELETED = "Address deleted"


def _address_form(request, *, save, success: str, address=None):
    """The Addresses page with its form: on a valid POST `save(data)` and back to the list
    with `success`; else the page with the form's values and messages (the service's refusal,
    e.g. past the limit, above the form)."""
    values, errors = ({}, {}) if address is None else (addresses.address_as_dict(address), {})
    if request.method == "POST":
        data, errors = validate(AddressInputSerializer, request.POST)
        if data is not None:
            try:
                save(data)
            except ValidationError as refusal:
                errors = {NON_FIELD_ERRORS: refusal.messages}
            except NotFound as gone:  # deleted meanwhile (another tab)
                raise Http404(gone.message) from gone
            else:
                messages.success(request, success)
                return redirect("addresses")
        values = request.POST
    context = {
        "addresses": list(addresses.address_list_of(request.user)),
        "editing": address,
        "values": values,
        "errors": errors,
        "form_errors": errors.get(NON_FIELD_ERRORS, []),
        "countries": list(countries),
        "max_addresses": addresses.MAX_ADDRESSES,
    }
    return render(request, "dashboard/addresses.html", context)


@login_required
def address_book(request):
    """Addresses: the account's saved addresses (the default first) and the form to add one."""
    return _address_form(
        request,
        save=lambda data: addresses.address_create(owner=request.user, **data),
        success=ADDRESS_ADDED,
    )


@login_required
def address_edit(request, pk):
    """Edit one of the account's addresses (another account's is not found)."""
    address = get_or_404(addresses.address_of(request.user), pk)
    return _address_form(
        request,
        save=lambda data: addresses.address_update(address=address, **data),
        success=ADDRESS_UPDATED,
        address=address,
    )


@login_required
@require_POST
def address_make_default(request, pk):
    try:
        addresses.address_make_default(address=get_or_404(addresses.address_of(request.user), pk))
    except NotFound as gone:  # deleted meanwhile (another tab)
        raise Http404(gone.message) from gone
    messages.success(request, ADDRESS_MADE_DEFAULT)
    return redirect("addresses")


@login_required
@require_POST
def address_delete(request, pk):
    addresses.address_delete(address=get_or_404(addresses.address_of(request.user), pk))
    messages.success(request, ADDRESS_DELETED)
    return redirect("addresses")


@shop_admin_required
def users(request):
    """All Users: the all-users island, first rendered from the same list as GET /api/user."""
    props = island_props(users=UserOutputSerializer(selectors.user_list(), many=True).data)
    return render(request, "dashboard/users.html", {"props": props})


NOT_STAFF = "Your account cannot open Django admin."


def admin_login(request):
    """Django admin's sign-in is the shop's /login (its limits hold there too).

    Staff go on to `next` (Django admin's own page by default); a signed-in account without
    admin access goes home with a notice, rather than round the login loop again.
    """
    next_url = request.GET.get(REDIRECT_FIELD_NAME, "")
    if not url_has_allowed_host_and_scheme(
        next_url, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        next_url = ""
    next_url = next_url or reverse("admin:index")
    if request.user.is_authenticated:
        if request.user.is_active and request.user.is_staff:
            return redirect(next_url)
        messages.error(request, NOT_STAFF)
        return redirect("home")
    return redirect_to_login(next_url, login_url=reverse("login"))
