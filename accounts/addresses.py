"""The address book: an account's saved addresses, at most MAX_ADDRESSES, exactly one default.

Writes (address_create, address_update, address_delete, address_make_default) lock the
owner's row first, so two requests of one account at once are taken one after the other: they
cannot pass the limit together or leave two defaults (the database refuses two defaults too:
accounts_address_one_default). A bad address is a ValidationError naming its field.

An account's first address is its default; making another the default unmakes the old one;
deleting the default makes the most recently added remaining address the default (the one
the shopper most likely still uses), so an account with addresses always has one.
"""

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import QuerySet

from core.errors import NotFound

from .models import Address, User

MAX_ADDRESSES = 20
TOO_MANY_ADDRESSES = (
    f"An account keeps at most {MAX_ADDRESSES} addresses: delete one to add another."
)
ADDRESS_GONE = "This address no longer exists."
# The fields a caller gives (the model's names); line2 and region may be "".
FIELDS = ("full_name", "line1", "line2", "city", "region", "postcode", "country", "phone")


# --- Reads -------------------------------------------------------------------------------


def address_list_of(user: User) -> QuerySet[Address]:
    """The account's addresses, the default first, then the newest."""
    return Address.objects.filter(owner=user).order_by("-is_default", "-created", "-pk")


def address_of(user: User) -> QuerySet[Address]:
    """The addresses `user` may change: their own (another account's id is not found)."""
    return Address.objects.filter(owner=user)


def address_one_line(address: Address) -> str:
    """The one-line form, as an order's `address`: "Jane Rider, 1 Main St, Apt 2,
    Springfield, IL 62701, United States" (empty parts left out)."""
    place = " ".join(part for part in (address.region, address.postcode) if part)
    parts = (address.full_name, address.line1, address.line2, address.city, place)
    return ", ".join([*(part for part in parts if part), str(address.country.name)])


def address_as_dict(address: Address) -> dict:
    """The API's `<address>` (API.md)."""
    return {
        "_id": address.pk,
        "fullName": address.full_name,
        "line1": address.line1,
        "line2": address.line2,
        "city": address.city,
        "region": address.region,
        "postcode": address.postcode,
        "country": str(address.country.code),
        "phone": address.phone,
        "isDefault": address.is_default,
    }


# --- Writes ------------------------------------------------------------------------------


def address_check_room(owner: User) -> int:
    """How many addresses the account has; ValidationError when it has no room for one more.
    (address_create asks under the owner's lock; a form may ask first, to say so early.)"""
    count = Address.objects.filter(owner=owner).count()
    if count >= MAX_ADDRESSES:
        raise ValidationError(TOO_MANY_ADDRESSES, code="too_many")
    return count


def _lock_owner(owner: User) -> None:
    """Take the owner's row lock: the account's address writes run one at a time."""
    User.objects.select_for_update().filter(pk=owner.pk).values_list("pk").first()


def _clean(address: Address) -> None:
    """The model's rules (postcode for its country, phone, lengths): ValidationError per field."""
    address.full_clean(exclude=["owner", "is_default"], validate_constraints=False)


def _still_there(address: Address) -> bool:
    """Whether the address is still saved (another request may have deleted it meanwhile:
    NotFound), and whether it is the default now."""
    is_default = Address.objects.filter(pk=address.pk).values_list("is_default", flat=True)
    if not is_default:
        raise NotFound(ADDRESS_GONE)
    return is_default[0]


def _unset_default(owner: User, *, but: Address | None = None) -> None:
    others = Address.objects.filter(owner=owner, is_default=True)
    if but is not None and but.pk is not None:
        others = others.exclude(pk=but.pk)
    others.update(is_default=False)


@transaction.atomic
def address_create(
    *,
    owner: User,
    full_name: str,
    line1: str,
    city: str,
    postcode: str,
    country: str,
    phone: str,
    line2: str = "",
    region: str = "",
    is_default: bool = False,
) -> Address:
    """Save a new address; the account's first is its default. Past MAX_ADDRESSES: refused."""
    _lock_owner(owner)
    address = Address(
        owner=owner,
        full_name=full_name,
        line1=line1,
        line2=line2,
        city=city,
        region=region,
        postcode=postcode,
        country=country,
        phone=phone,
    )
    _clean(address)
    count = address_check_room(owner)
    address.is_default = is_default or count == 0
    if address.is_default:
        _unset_default(owner)
    address.save()
    return address


@transaction.atomic
def address_update(*, address: Address, is_default: bool | None = None, **fields) -> Address:
    """Change an address's fields (FIELDS). `is_default=True` makes it the default; the
    default stays the default otherwise (another one is made the default instead)."""
    unknown = set(fields) - set(FIELDS)
    if unknown:
        raise TypeError(f"address_update() got unexpected fields {sorted(unknown)}")
    _lock_owner(address.owner)
    address.is_default = _still_there(address)
    for name, value in fields.items():
        setattr(address, name, value)
    _clean(address)
    if is_default and not address.is_default:
        _unset_default(address.owner, but=address)
        address.is_default = True
    address.save()
    return address


@transaction.atomic
def address_make_default(*, address: Address) -> Address:
    """Make `address` its account's default, and the old default an ordinary address."""
    _lock_owner(address.owner)
    _still_there(address)
    _unset_default(address.owner, but=address)
    address.is_default = True
    address.save(update_fields=["is_default", "updated"])
    return address


@transaction.atomic
def address_delete(*, address: Address) -> None:
    """Delete an address; when it was the default, the newest remaining one becomes it.
    Orders keep their own copy of where they went."""
    owner = address.owner
    _lock_owner(owner)
    deleted, _ = Address.objects.filter(pk=address.pk).delete()
    if deleted and not Address.objects.filter(owner=owner, is_default=True).exists():
        newest = address_list_of(owner).first()
        if newest is not None:
            newest.is_default = True
            newest.save(update_fields=["is_default", "updated"])
