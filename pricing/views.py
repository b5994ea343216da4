"""The owner's pages: Shipping (methods with their weight bands, and tax rates) and Vouchers.
Each form is checked by the admin API's input serializer and written through pricing.services,
whose refusals the page shows as the form's messages."""

from django.contrib import messages
from django.core.exceptions import ObjectDoesNotExist, ValidationError
from django.http import Http404
from django.shortcuts import redirect, render
from django.utils import timezone
from django.views.decorators.http import require_POST
from django_countries import countries

from core.api import get_or_404
from core.page_forms import submitted, validate
from core.page_guards import shop_admin_required

from . import selectors, services
from .models import ShippingMethod, TaxRate, Voucher
from .serializers import (
    PAYLOAD_NAMES,
    ShippingMethodInputSerializer,
    TaxRateInputSerializer,
    VoucherInputSerializer,
)

METHOD_ADDED = "Shipping method added"
METHOD_UPDATED = "Shipping method updated"
METHOD_MADE_DEFAULT = "Default shipping method changed"
METHOD_SWITCHED_ON = "Shipping method switched on"
METHOD_SWITCHED_OFF = "Shipping method switched off"
METHOD_DELETED = "Shipping method deleted"
RATE_ADDED = "Tax rate added"
RATE_UPDATED = "Tax rate updated"
RATE_DELETED = "Tax rate deleted"
VOUCHER_ADDED = "Voucher created"
VOUCHER_UPDATED = "Voucher updated"
VOUCHER_SWITCHED_ON = "Voucher switched on"
VOUCHER_SWITCHED_OFF = "Voucher switched off"

# Empty band rows the method form offers below the filled ones (no JavaScript needed).
EMPTY_BANDS = 3
DATETIME_INPUT = "%Y-%m-%dT%H:%M"  # what <input type="datetime-local"> reads and sends


def refusal_errors(refusal: ValidationError) -> dict[str, list[str]]:
    """A service's refusal (by model field) as the form's errors (by input name)."""
    if not hasattr(refusal, "error_dict"):
        return {"form": refusal.messages}
    return {PAYLOAD_NAMES.get(f, f): found for f, found in refusal.message_dict.items()}


def save_form(request, serializer_class, data, *, save, success: str, to: str):
    """(redirect, None) once `data` passes `serializer_class` and `save(fields)` takes it;
    else (None, errors by input name)."""
    fields, errors = validate(serializer_class, data)
    if fields is None:
        return None, errors
    try:
        save(fields)
    except ValidationError as refusal:
        return None, refusal_errors(refusal)
    except ObjectDoesNotExist as gone:  # deleted meanwhile (another tab)
        raise Http404(str(gone)) from gone
    messages.success(request, success)
    return redirect(to), None


def with_form_errors(errors: dict, inputs) -> dict:
    """`errors` with those of no input of the form (a service's rule across fields) kept as
    the form's own messages, shown above it."""
    errors = dict(errors)
    stray = [m for name in list(errors) if name not in inputs for m in errors.pop(name)]
    return {**errors, "form": stray}


# --- Shipping ------------------------------------------------------------------------------

METHOD_INPUTS = {"name", "countries", "bands", "freeOver", "eta", "active", "isDefault"}
RATE_INPUTS = {"country", "region", "name", "rate"}


def method_payload(post) -> dict:
    """The method form as the API's payload: the band rows left empty are dropped."""
    rows = zip(post.getlist("bandGrams"), post.getlist("bandPrice"), strict=False)
    bands = [
        {"upToGrams": grams.strip(), "price": price.strip()}
        for grams, price in rows
        if grams.strip() or price.strip()
    ]
    plain = submitted({k: post.get(k, "") for k in ("name", "freeOver", "eta")})
    return {
        **plain,
        "countries": post.getlist("countries"),
        "bands": bands,
        "active": "active" in post,
        "isDefault": "isDefault" in post,
    }


def method_values(method: ShippingMethod | None) -> dict:
    if method is None:
        return {"countries": [], "bands": [], "active": True}
    return {
        "name": method.name,
        "countries": [c.code for c in method.countries],
        "bands": [(band.up_to_grams, band.price) for band in method.bands.all()],
        "freeOver": method.free_over,
        "eta": method.eta,
        "active": method.active,
        "isDefault": method.is_default,
    }


def method_values_typed(post) -> dict:
    """What was typed, to show again with the messages."""
    rows = zip(post.getlist("bandGrams"), post.getlist("bandPrice"), strict=False)
    return {
        "name": post.get("name", ""),
        "countries": post.getlist("countries"),
        "bands": [(g, p) for g, p in rows if g.strip() or p.strip()],
        "freeOver": post.get("freeOver", ""),
        "eta": post.get("eta", ""),
        "active": "active" in post,
        "isDefault": "isDefault" in post,
    }


def rate_values(rate: TaxRate | None) -> dict:
    if rate is None:
        return {}
    return {
        "country": rate.country.code,
        "region": rate.region,
        "name": rate.name,
        "rate": rate.rate,
    }


def shipping_page(request, *, method=None, method_form=None, rate=None, rate_form=None):
    """The Shipping page: the methods and rates, the method form (adding, or editing
    `method`) and the rate form (adding, or editing `rate`), each with what was typed and its
    messages when it was sent and refused."""
    method_values_, method_errors = method_form or (method_values(method), {})
    rate_values_, rate_errors = rate_form or (rate_values(rate), {})
    method_errors = with_form_errors(method_errors, METHOD_INPUTS)
    rate_errors = with_form_errors(rate_errors, RATE_INPUTS)
    bands = list(method_values_.get("bands", []))
    context = {
        "methods": list(selectors.method_list()),
        "rates": list(selectors.tax_rate_list()),
        "editing_method": method,
        "method_values": method_values_,
        "method_errors": method_errors,
        "band_rows": bands + [("", "")] * EMPTY_BANDS,
        "editing_rate": rate,
        "rate_values": rate_values_,
        "rate_errors": rate_errors,
        "countries": list(countries),
    }
    return render(request, "dashboard/shipping.html", context)


def _method_form(request, *, save, success: str, method=None):
    if request.method != "POST":
        return shipping_page(request, method=method)
    done, errors = save_form(
        request,
        ShippingMethodInputSerializer,
        method_payload(request.POST),
        save=save,
        success=success,
        to="shipping",
    )
    return done or shipping_page(
        request, method=method, method_form=(method_values_typed(request.POST), errors)
    )


@shop_admin_required
def shipping(request):
    """Shipping: the methods and tax rates, and the form to add a method."""
    return _method_form(
        request,
        save=lambda fields: services.shipping_method_create(**fields),
        success=METHOD_ADDED,
    )


@shop_admin_required
def method_edit(request, pk):
    method = get_or_404(selectors.method_list(), pk)
    return _method_form(
        request,
        save=lambda fields: services.shipping_method_update(method=method, **fields),
        success=METHOD_UPDATED,
        method=method,
    )


def _method_change(request, method: ShippingMethod, *, success: str, **changes):
    """Writes `method` again with `changes` (its other fields as they are): the success
    message, or the service's refusal as an error message."""
    fields = {
        "name": method.name,
        "countries": [c.code for c in method.countries],
        "bands": [(band.up_to_grams, band.price) for band in method.bands.all()],
        "free_over": method.free_over,
        "eta": method.eta,
        "active": method.active,
        "is_default": method.is_default,
        **changes,
    }
    try:
        services.shipping_method_update(method=method, **fields)
    except ObjectDoesNotExist as gone:  # deleted meanwhile (another tab)
        raise Http404(str(gone)) from gone
    except ValidationError as refusal:
        messages.error(request, " ".join(refusal.messages))
    else:
        messages.success(request, success)
    return redirect("shipping")


@shop_admin_required
@require_POST
def method_make_default(request, pk):
    method = get_or_404(selectors.method_list(), pk)
    return _method_change(request, method, success=METHOD_MADE_DEFAULT, is_default=True)


@shop_admin_required
@require_POST
def method_switch(request, pk):
    """Switches a method on (`active=true`) or off (anything else)."""
    method = get_or_404(selectors.method_list(), pk)
    on = request.POST.get("active") == "true"
    success = METHOD_SWITCHED_ON if on else METHOD_SWITCHED_OFF
    return _method_change(request, method, success=success, active=on)


@shop_admin_required
@require_POST
def method_delete(request, pk):
    method = get_or_404(ShippingMethod.objects, pk)
    try:
        services.shipping_method_delete(method=method)
    except ObjectDoesNotExist as gone:  # deleted meanwhile (another tab)
        raise Http404(str(gone)) from gone
    except ValidationError as refusal:
        messages.error(request, " ".join(refusal.messages))
    else:
        messages.success(request, METHOD_DELETED)
    return redirect("shipping")


def _rate_form(request, *, save, success: str, rate=None):
    if request.method != "POST":
        return shipping_page(request, rate=rate)
    # "rate_name": the method form on the same page has the input "name".
    typed = {k: request.POST.get("rate_name" if k == "name" else k, "") for k in RATE_INPUTS}
    done, errors = save_form(
        request, TaxRateInputSerializer, submitted(typed), save=save, success=success, to="shipping"
    )
    return done or shipping_page(request, rate=rate, rate_form=(typed, errors))


@shop_admin_required
def rate_add(request):
    return _rate_form(
        request, save=lambda fields: services.tax_rate_create(**fields), success=RATE_ADDED
    )


@shop_admin_required
def rate_edit(request, pk):
    rate = get_or_404(TaxRate.objects, pk)
    return _rate_form(
        request,
        save=lambda fields: services.tax_rate_update(tax_rate=rate, **fields),
        success=RATE_UPDATED,
        rate=rate,
    )


@shop_admin_required
@require_POST
def rate_delete(request, pk):
    services.tax_rate_delete(tax_rate=get_or_404(TaxRate.objects, pk))
    messages.success(request, RATE_DELETED)
    return redirect("shipping")


# --- Vouchers ------------------------------------------------------------------------------

VOUCHER_INPUTS = {
    "code",
    "kind",
    "value",
    "minSubtotal",
    "startsAt",
    "endsAt",
    "usageLimit",
    "oncePerCustomer",
    "active",
}


def local_input(moment) -> str:
    return timezone.localtime(moment).strftime(DATETIME_INPUT) if moment else ""


def voucher_values(voucher: Voucher | None) -> dict:
    if voucher is None:
        return {"kind": Voucher.Kind.PERCENT, "active": True}
    return {
        "code": voucher.code,
        "kind": voucher.kind,
        "value": voucher.value,
        "minSubtotal": voucher.min_subtotal,
        "startsAt": local_input(voucher.starts_at),
        "endsAt": local_input(voucher.ends_at),
        "usageLimit": voucher.usage_limit or "",
        "oncePerCustomer": voucher.once_per_customer,
        "active": voucher.active,
    }


def voucher_payload(post) -> dict:
    texts = ("code", "kind", "value", "minSubtotal", "startsAt", "endsAt", "usageLimit")
    return {
        **submitted({k: post.get(k, "") for k in texts}),
        "oncePerCustomer": "oncePerCustomer" in post,
        "active": "active" in post,
    }


def _voucher_form(request, *, save, success: str, voucher=None):
    values, errors = voucher_values(voucher), {}
    if request.method == "POST":
        done, errors = save_form(
            request,
            VoucherInputSerializer,
            voucher_payload(request.POST),
            save=save,
            success=success,
            to="vouchers",
        )
        if done:
            return done
        values = {
            **{k: request.POST.get(k, "") for k in VOUCHER_INPUTS},
            "oncePerCustomer": "oncePerCustomer" in request.POST,
            "active": "active" in request.POST,
        }
    context = {
        "vouchers": list(selectors.voucher_list()),
        "editing": voucher,
        "values": values,
        "errors": with_form_errors(errors, VOUCHER_INPUTS),
        "kinds": Voucher.Kind.choices,
    }
    return render(request, "dashboard/vouchers.html", context)


@shop_admin_required
def vouchers(request):
    """Vouchers: every code with its offer and uses, and the form to create one."""
    return _voucher_form(
        request, save=lambda fields: services.voucher_create(**fields), success=VOUCHER_ADDED
    )


@shop_admin_required
def voucher_edit(request, pk):
    voucher = get_or_404(Voucher.objects, pk)
    return _voucher_form(
        request,
        save=lambda fields: services.voucher_update(voucher=voucher, **fields),
        success=VOUCHER_UPDATED,
        voucher=voucher,
    )


@shop_admin_required
@require_POST
def voucher_switch(request, pk):
    """Switches a voucher on (`active=true`) or off (anything else): its other fields stay."""
    voucher = get_or_404(Voucher.objects, pk)
    on = request.POST.get("active") == "true"
    services.voucher_update(
        voucher=voucher,
        code=voucher.code,
        kind=voucher.kind,
        value=voucher.value,
        min_subtotal=voucher.min_subtotal,
        starts_at=voucher.starts_at,
        ends_at=voucher.ends_at,
        usage_limit=voucher.usage_limit,
        once_per_customer=voucher.once_per_customer,
        active=on,
    )
    messages.success(request, VOUCHER_SWITCHED_ON if on else VOUCHER_SWITCHED_OFF)
    return redirect("vouchers")
