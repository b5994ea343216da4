"""The trust pages (/shipping-returns, /privacy, /terms, /contact), linked from the footer."""

from dataclasses import dataclass


@dataclass(frozen=True)
class Section:
    heading: str
    paragraphs: tuple[str, ...]


@dataclass(frozen=True)
class TrustPage:
    slug: str  # the page's path, e.g. /shipping-returns
    link: str  # the footer's label
    title: str
    intro: str
    sections: tuple[Section, ...]


TRUST_PAGES = (
    TrustPage(
        slug="shipping-returns",
        link="Shipping & returns",
        title="Shipping & returns",
        intro="How your parts reach you, and what to do when one is not right.",
        sections=(
            Section(
                "Shipping",
                (
                    "Orders are packed once they are paid and approved by our team, usually "
                    "within one working day. You can follow every order under Dashboard, My Order.",
                    "Parcels travel with a tracked courier. Delivery inside the country takes two "
                    "to four working days; international delivery takes five to ten.",  # replace
                ),
            ),
            Section(
                "Returns",
                (
                    "Unused parts in their original packaging can be returned within 30 days of "
                    "delivery for a full refund of the part's price.",
                    "Write to us through the contact page with your order number before you send "
                    "anything back, and we will tell you where to send it.",
                ),
            ),
        ),
    ),
    TrustPage(
        slug="privacy",
        link="Privacy",
        title="Privacy",
        intro="What we keep about you, why, and for how long.",
        sections=(
            Section(
                "What we keep",
                (
                    "Your name, e-mail address and password (stored only as a salted hash), the "
                    "profile details you choose to give, and for each order the delivery address "
                    "and phone number you entered.",
                    "Card details never reach us: payments are handled by our card payment "
                    "provider, and we keep only the payment's reference.",
                ),
            ),
            Section(
                "Why",
                (
                    "To deliver your orders, to answer your questions and to keep the shop safe "
                    "from abuse. We do not sell or share your data for advertising.",
                    "Ask us through the contact page to see, correct or delete what we keep about "
                    "you. Orders stay in our accounts for as long as the law requires.",
                ),
            ),
        ),
    ),
    TrustPage(
        slug="terms",
        link="Terms",
        title="Terms",
        intro="The rules of buying from this shop.",
        sections=(
            Section(
                "Orders and prices",
                (
                    "Prices are in US dollars. The price of an order is fixed when you place it, "
                    "and the units you order are held for you until you pay or delete the order.",
                    "Each part has a minimum order quantity; an order is for at least that many "
                    "units and at most the units in stock.",
                ),
            ),
            Section(
                "Payment",
                (
                    "An order ships once it is paid in full by card. If we cannot fulfil a paid "
                    "order we refund it in full.",
                ),
            ),
        ),
    ),
    TrustPage(
        slug="contact",
        link="Contact",
        title="Contact",
        intro="We answer every message within one working day.",
        sections=(
            Section(
                "Write to us",
                (
                    "E-mail: support@example.com",  # replace
                    "Phone: +1 555 0100, Monday to Friday, 9:00 to 17:00",  # replace
                ),
            ),
            Section(
                "Visit",
                ("Throttle & Gear, 12 Workshop Road, Springfield",),  # replace
            ),
        ),
    ),
)
