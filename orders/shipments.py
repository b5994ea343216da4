"""How an order was shipped: the carrier, as riders know its name, its tracking number, and the
carrier's own tracking page for the four a rider meets most (UPS, USPS, FedEx, DHL)."""

from urllib.parse import quote

# The carriers whose tracking page the shop links, by the name shown, each with its page.
TRACKING_PAGES = {
    "UPS": "https://www.ups.com/track?tracknum={number}",
    "USPS": "https://tools.usps.com/go/TrackConfirmAction?tLabels={number}",
    "FedEx": "https://www.fedex.com/fedextrack/?trknbr={number}",
    "DHL": "https://www.dhl.com/global-en/home/tracking.html?tracking-id={number}",
}
_BY_FOLDED = {name.casefold(): name for name in TRACKING_PAGES}


def carrier_name(carrier: str) -> str:
    """A known carrier as it is written ("ups" → "UPS"); any other as typed, trimmed."""
    carrier = " ".join(carrier.split())
    return _BY_FOLDED.get(carrier.casefold(), carrier)


def tracking_url(carrier: str, number: str) -> str | None:
    """The carrier's page that tracks `number`; None for another carrier or no number."""
    page = TRACKING_PAGES.get(carrier_name(carrier))
    if page is None or not number:
        return None
    return page.format(number=quote(number, safe=""))


def shipment_text(carrier: str, number: str) -> str:
    """The shipment as a sentence: "Shipped with UPS, tracking 1Z…" (the order page, the
    shipped mail and the Timeline say it so); "Shipped" when the shop gave neither."""
    if not carrier and not number:
        return "Shipped"
    tracking = f", tracking {number}" if number else ""
    return f"Shipped with {carrier or 'the carrier'}{tracking}"


def shipment_json(booking) -> dict | None:
    """`<booking>`'s `shipment`: null until the order is shipped (approved)."""
    if booking.status is None:
        return None
    return {
        "carrier": booking.carrier,
        "trackingNumber": booking.tracking_number,
        "trackingUrl": tracking_url(booking.carrier, booking.tracking_number),
        "shippedAt": booking.shipped_at,
    }
