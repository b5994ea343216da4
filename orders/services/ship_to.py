"""Where a checkout sends its order: one of the account's saved addresses, a new address (saved
to the book when the shopper asks), or the spec's free-text address and phone. Each gives the
order its copy of the address (`ship_to`, None for free text), its one-line `address` and its
phone."""

from dataclasses import dataclass

from django.core.exceptions import ValidationError

from accounts import addresses
from accounts.models import Address

ADDRESS_UNKNOWN = "There is no saved address with this id"


@dataclass(frozen=True)
class ShipTo:
    address: str  # the one-line form, the order's `address`
    phone: str
    copy: dict | None = None  # the address's fields as the API names them; None: free text
    fields: dict | None = None  # a new address's fields as the address book takes them


def ship_to_saved(*, user, address_id: int) -> ShipTo:
    """One of the account's saved addresses; a 400 on `addressId` for any other id."""
    address = addresses.address_of(user).filter(pk=address_id).first()
    if address is None:
        raise ValidationError({"addressId": ADDRESS_UNKNOWN})
    return _of(address)


def ship_to_new(*, fields: dict) -> ShipTo:
    """A new address (its fields checked as the address book checks them: the serializer's
    names and rules), not saved."""
    fields = {name: value for name, value in fields.items() if name != "is_default"}
    ship = _of(Address(**fields))
    return ShipTo(ship.address, ship.phone, ship.copy, fields)


def ship_to_text(*, address: str, phone: str) -> ShipTo:
    """The spec's free-text address and phone (the order ships to SHOP_COUNTRY)."""
    return ShipTo(address, phone)


def ship_to_save(*, user, ship: ShipTo) -> None:
    """Save a new address to the account's book (its first becomes the default); a 400 on
    `saveAddress` when the book is full."""
    try:
        addresses.address_create(owner=user, **ship.fields)
    except ValidationError as refused:
        raise ValidationError({"saveAddress": refused.messages}) from None


def _of(address: Address) -> ShipTo:
    copy = addresses.address_as_dict(address)
    del copy["_id"], copy["isDefault"]
    return ShipTo(addresses.address_one_line(address), address.phone, copy)
