"""What `manage.py seed_demo` puts in an empty shop: parts, reviews and two accounts."""

from dataclasses import dataclass
from decimal import Decimal

IMG = "/static/img/parts/"


@dataclass(frozen=True)
class DemoAccount:
    email: str
    name: str
    password: str
    label: str
    note: str = ""


ADMIN = DemoAccount(
    email="admin@example.com",
    name="Demo Admin",
    password="admin123",
    label="Shop admin",
    note="also logs in to the Django admin at /admin/",
)
USER = DemoAccount(email="user@example.com", name="Demo Rider", password="user123", label="Shopper")


@dataclass(frozen=True)
class DemoOrder:
    state: str  # one of orders.models.Booking.State
    part: str  # a demo part's name
    quantity: int


# The demo shopper's orders, oldest first: one in each state, so every screen shows something
# without card payments (the paid ones carry a made-up transaction id; the refunded one was
# refunded without Stripe, since no card was charged).
ORDERS = (
    DemoOrder(state="shipped", part="520 O-Ring Chain and Sprocket Kit 15/45", quantity=1),
    DemoOrder(state="refunded", part="7-inch Round LED Headlight with Halo DRL", quantity=1),
    DemoOrder(state="pending", part="Sintered HH Front Brake Pads", quantity=2),
    DemoOrder(state="expired", part="High-Flow Cone Air Filter 54 mm", quantity=2),
    DemoOrder(state="unpaid", part="Iridium Spark Plug CR9EIX", quantity=4),
)


@dataclass(frozen=True)
class DemoPartReview:
    """The demo shopper's review of a part of a paid demo order (so a verified buyer's), for
    a bike the part fits."""

    part: str  # a demo part's name
    rating: int
    title: str
    body: str
    bike: tuple[str, str, int]  # make, model, year (a demo vehicle)
    fits: bool


# "Fit confirmed by 1 rider of the 2019 Yamaha MT-07" on these parts' pages, for a visitor with
# that bike in the garage.
PART_REVIEWS = (
    DemoPartReview(
        part="520 O-Ring Chain and Sprocket Kit 15/45",
        rating=5,
        title="Straight swap on my MT-07",
        body="Same 15/45 gearing as stock. Riveted link went on with a cheap tool; no stretch "
        "after 3,000 km.",
        bike=("Yamaha", "MT-07", 2019),
        fits=True,
    ),
    DemoPartReview(
        part="Sintered HH Front Brake Pads",
        rating=4,
        title="Strong bite once bedded in",
        body="Fitted both front calipers in twenty minutes. A little dust, much better feel "
        "than the originals.",
        bike=("Yamaha", "MT-07", 2019),
        fits=True,
    ),
)
ADDRESS = "12 Demo Lane, Springfield"
PHONE = "5550100"

# The shop's shelves: slug -> name. Every demo part is on one.
CATEGORIES = {
    "brakes": "Brakes",
    "controls": "Controls & mirrors",
    "drivetrain": "Drivetrain",
    "engine-service": "Engine service",
    "exhaust-intake": "Exhaust & intake",
    "lighting-electrics": "Lighting & electrics",
    "suspension": "Suspension",
    "tyres": "Tyres",
}

# Other numbers of some demo parts (catalog.services.part_numbers_set), by the part's name:
# the maker's (OEM), older ones replaced (superseded), other makers' (aftermarket).
OTHER_NUMBERS = {
    "Apex 320 mm Floating Front Brake Disc": [
        {"number": "12311-MT4-000", "kind": "oem", "brand": "Honda"},
    ],
    "Sintered HH Front Brake Pads": [
        {"number": "1WD-W0045-00", "kind": "oem", "brand": "Yamaha"},
        {"number": "SBS 634HF", "kind": "aftermarket", "brand": "SBS"},
    ],
    "Iridium Spark Plug CR9EIX": [
        {"number": "31916-MKC-A01", "kind": "oem", "brand": "Honda"},
        {"number": "IU27D", "kind": "aftermarket", "brand": "Denso"},
    ],
    "Spin-On Oil Filter HF204": [
        {"number": "15410-MFJ-D02", "kind": "oem", "brand": "Honda"},
        {"number": "15410-MFJ-D01", "kind": "superseded", "brand": "Honda"},
        {"number": "KN-204", "kind": "aftermarket", "brand": "K&N"},
    ],
    "12 V AGM Battery YTX9-BS": [
        {"number": "GTX9-BS", "kind": "aftermarket", "brand": "GS Yuasa"},
    ],
}


# Keyword arguments of catalog.services.part_create (with the category's slug), in the order
# the shop should list them, each with its real weight (grams, for shipping by weight). The
# bikes each fits: shop/demo_fitment.py.
PARTS = (
    {
        "name": "Apex 320 mm Floating Front Brake Disc",
        "category": "brakes",
        "img": IMG + "brake-disc.svg",
        "description": "Stainless-steel drilled rotor on an anodised aluminium carrier. "
        "Runs cooler and resists warping under hard braking.",
        "price": Decimal("189.99"),
        "minimum_order_quantity": 1,
        "available_quantity": 24,
        "part_number": "APX-320-FL01",
        "brand": "Galfer",
        "weight": 1150,  # grams
    },
    {
        "name": "520 O-Ring Chain and Sprocket Kit 15/45",
        "category": "drivetrain",
        "img": IMG + "chain-sprocket-kit.svg",
        "description": "Heavy-duty 520 O-ring chain with 118 links, steel front and rear "
        "sprockets. Pre-stretched and greased for a long service life.",
        "price": Decimal("149.00"),
        "minimum_order_quantity": 1,
        "available_quantity": 35,
        "part_number": "CK520-1545",
        "brand": "DID",
        "weight": 2900,  # grams
    },
    {
        "name": "7-inch Round LED Headlight with Halo DRL",
        "category": "lighting-electrics",
        "img": IMG + "led-headlight.svg",
        "description": "Projector LED headlight with high and low beam and a daytime "
        "running ring. Plug-and-play H4 connector, E-marked.",
        "price": Decimal("129.00"),
        "minimum_order_quantity": 1,
        "available_quantity": 40,
        "part_number": "LH-7R-HALO",
        "brand": "Highsider",
        "weight": 1300,  # grams
        "universal": True,  # fits every bike
    },
    {
        "name": "Sintered HH Front Brake Pads",
        "category": "brakes",
        "img": IMG + "brake-pads.svg",
        "description": "Sintered copper compound for strong, consistent bite in wet and dry. "
        "Sold as a pair for one caliper.",
        "price": Decimal("34.50"),
        "minimum_order_quantity": 2,
        "available_quantity": 180,
        "part_number": "FA252HH",
        "brand": "EBC",
        "weight": 180,  # grams
    },
    {
        "name": "Stainless Slip-On Exhaust Muffler 51 mm",
        "category": "exhaust-intake",
        "img": IMG + "exhaust-muffler.svg",
        "description": "Brushed stainless canister with a removable dB killer and a "
        "51 mm link pipe. Saves about 2 kg over most stock silencers.",
        "price": Decimal("289.00"),
        "minimum_order_quantity": 1,
        "available_quantity": 15,
        "part_number": "SO-51-SS2",
        "brand": "LeoVince",
        "weight": 2400,  # grams
    },
    {
        "name": "Piggyback Rear Shock Absorber 330 mm",
        "category": "suspension",
        "img": IMG + "shock-absorber.svg",
        "description": "Gas-charged rear shock with a remote reservoir, adjustable preload "
        "and rebound damping.",
        "price": Decimal("349.00"),
        "minimum_order_quantity": 1,
        "available_quantity": 12,
        "part_number": "PB-330-RS",
        "brand": "YSS",
        "weight": 2200,  # grams
    },
    {
        "name": "Sport Radial Rear Tyre 180/55 ZR17",
        "category": "tyres",
        "img": IMG + "tyre.svg",
        "description": "Dual-compound sport-touring tyre: a hard centre for mileage and "
        "soft shoulders for grip in corners.",
        "price": Decimal("164.95"),
        "minimum_order_quantity": 1,
        "available_quantity": 48,
        "part_number": "SR-18055-17",
        "brand": "Pirelli",
        "weight": 6300,  # grams
    },
    {
        "name": "High-Flow Cone Air Filter 54 mm",
        "category": "exhaust-intake",
        "img": IMG + "air-filter.svg",
        "description": "Washable cotton-gauze pod filter with a rubber neck and a "
        "stainless clamp. Fits 54 mm carburettor and throttle-body inlets.",
        "price": Decimal("42.75"),
        "minimum_order_quantity": 2,
        "available_quantity": 90,
        "part_number": "CF-54-HF",
        "brand": "K&N",
        "weight": 250,  # grams
    },
    {
        "name": "Iridium Spark Plug CR9EIX",
        "category": "engine-service",
        "img": IMG + "spark-plug.svg",
        "description": "Fine-wire iridium centre electrode for an easier cold start and a "
        "steadier idle. Pre-gapped at 0.8 mm.",
        "price": Decimal("12.49"),
        "minimum_order_quantity": 4,
        "available_quantity": 400,
        "part_number": "CR9EIX",
        "brand": "NGK",
        "weight": 45,  # grams
    },
    {
        "name": "Spin-On Oil Filter HF204",
        "category": "engine-service",
        "img": IMG + "oil-filter.svg",
        "description": "Synthetic-media oil filter with a 17 mm nut on the dome for "
        "easy removal. Fits most Japanese twins and fours.",
        "price": Decimal("9.95"),
        "minimum_order_quantity": 6,
        "available_quantity": 520,
        "part_number": "HF204",
        "brand": "HiFlo",
        "weight": 300,  # grams
    },
    {
        "name": "12 V AGM Battery YTX9-BS",
        "category": "lighting-electrics",
        "img": IMG + "battery.svg",
        "description": "Sealed, maintenance-free AGM battery, 8 Ah and 135 CCA. "
        "Shipped charged and ready to fit.",
        "price": Decimal("79.99"),
        "minimum_order_quantity": 1,
        "available_quantity": 70,
        "part_number": "YTX9-BS",
        "brand": "Yuasa",
        "weight": 3000,  # grams
    },
    {
        "name": "CNC Adjustable Clutch Lever",
        "category": "controls",
        "img": IMG + "clutch-lever.svg",
        "description": "Billet aluminium lever with a six-position reach adjuster. "
        "Lighter pull and a crisp feel at the bite point.",
        "price": Decimal("54.90"),
        "minimum_order_quantity": 1,
        "available_quantity": 60,
        "part_number": "CL-CNC-41",
        "brand": "Puig",
        "weight": 120,  # grams
    },
    {
        "name": "Dual-Compound Handlebar Grips 22 mm",
        "category": "controls",
        "img": IMG + "handlebar-grips.svg",
        "description": "Soft-touch ribbed grips with a firm inner core for 22 mm (7/8 in) "
        "bars. Open ends accept bar-end weights.",
        "price": Decimal("19.99"),
        "minimum_order_quantity": 2,
        "available_quantity": 150,
        "part_number": "HG-22-DC",
        "brand": "Oxford",
        "weight": 200,  # grams
        "universal": True,  # fits every bike
    },
    {
        "name": "Oval Rear-View Mirror Pair M10",
        "category": "controls",
        "img": IMG + "mirror.svg",
        "description": "Convex glass in an oval housing on a ball-jointed stem. "
        "M10 x 1.25 threads, left and right in the box.",
        "price": Decimal("36.50"),
        "minimum_order_quantity": 2,
        "available_quantity": 85,
        "part_number": "MR-OV-M10",
        "brand": "Oxford",
        "weight": 500,  # grams
        "universal": True,  # fits every bike
    },
)

# Keyword arguments of reviews.services.review_create (without the user).
REVIEWS = (
    {
        "name": "Marco Rossi",
        "review": "The chain kit fitted my Ninja 650 perfectly and arrived in three days.",
        "ratings": 5,
    },
    {
        "name": "Aisha Khan",
        "review": "Brake pads bite well in the rain. Packaging could be better, "
        "but the price was fair.",
        "ratings": 4,
    },
    {
        "name": "Tom Becker",
        "review": "Ordered forty spark plugs for our workshop; approval and shipping were quick.",
        "ratings": 5,
    },
    {
        "name": "Lucía Fernández",
        "review": "Bright headlight, though the mounting ears needed a little filing to fit.",
        "ratings": 3,
    },
    {
        "name": "Kenji Sato",
        "review": "The mirror stems loosened on a long ride. Support sent a replacement "
        "pair straight away.",
        "ratings": 2,
    },
)


# Keyword arguments of pricing.services.shipping_method_create. Standard is free and the
# default, and the demo has no tax rates: an order's total is still pricePerUnit × quantity.
SHIPPING_METHODS = (
    {"name": "Standard", "eta": "3–5 business days", "is_default": True, "bands": ()},
    {
        "name": "Express",
        "eta": "1–2 business days",
        "bands": ((50_000, Decimal("14.99")),),  # up to 50 kg
    },
)

# Keyword arguments of pricing.services.voucher_create: codes a newcomer can try on /cart.
VOUCHERS = (
    {"code": "RIDE10", "kind": "percent", "value": Decimal("10")},  # 10% off the parts
    {"code": "FREESHIP", "kind": "shipping"},  # Express for free
)
