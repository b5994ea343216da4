"""The home page: the banner's slides, the quality and environment points, the business
summary, and how many reviews it shows."""

from dataclasses import dataclass

BANNER = "img/banner/"


@dataclass(frozen=True)
class Slide:
    image: str  # a path under static/
    alt: str
    heading: str
    text: str
    cta_label: str
    cta_url: str  # a URL name


@dataclass(frozen=True)
class Point:
    title: str
    text: str


@dataclass(frozen=True)
class Figure:
    value: str
    label: str
    text: str


SLIDES = (
    Slide(
        image=BANNER + "open-road.svg",
        alt="A motorcycle riding along a mountain road at sunset",
        heading="Parts that keep you riding",
        text="Brakes, chains, tyres and electrics for sport, touring and adventure bikes, "
        "checked before they leave our warehouse.",
        cta_label="Browse all parts",
        cta_url="allparts",
    ),
    Slide(
        image=BANNER + "workshop.svg",
        alt="A motorcycle workshop with tools on a pegboard and an engine on the bench",
        heading="Built for workshops and home garages",
        text="Order at workshop quantities with clear minimums, real stock levels and prices "
        "per unit you can plan a season around.",
        cta_label="See what is in stock",
        cta_url="allparts",
    ),
    Slide(
        image=BANNER + "genuine-parts.svg",
        alt="A brake disc, a chain sprocket and a spark plug laid out on a dark background",
        heading="Genuine quality, shipped worldwide",
        text="Every part meets or beats the original specification, and it reaches riders "
        "in more than 85 countries.",
        cta_label="Shop parts",
        cta_url="allparts",
    ),
)

QUALITY_INTRO = (
    "A part that fails at speed is not a bargain at any price. That is why every item we sell "
    "goes through the same checks before it is listed, and again before it is packed."
)
QUALITY_POINTS = (
    Point(
        "OEM-spec or better",
        "We stock parts built to the original manufacturer's dimensions and tolerances, from "
        "suppliers audited for consistent materials and batch tracing.",
    ),
    Point(
        "Inspected before dispatch",
        "Brake discs are measured for run-out, chains for length, batteries for charge. "
        "Anything outside tolerance never reaches a shelf.",
    ),
    Point(
        "Two-year warranty",
        "If a part fails through a defect in materials or workmanship within two years, we "
        "replace it, and we pay the return postage.",
    ),
    Point(
        "Fitment you can trust",
        "Sizes, threads and connectors are written out in every description, so you know it "
        "fits before you order.",
    ),
)

ENVIRONMENT_INTRO = (
    "We love the ride, and we want the roads and the countryside around them to stay worth "
    "riding. Here is what we do about the footprint of a parts business."
)
ENVIRONMENT_POINTS = (
    Point(
        "Plastic-free packaging",
        "Orders ship in recycled cardboard with paper tape and paper void fill, all of it "
        "recyclable at the kerb.",
    ),
    Point(
        "Take-back for batteries and filters",
        "Send back your old lead-acid or AGM battery and used oil filters with the free "
        "return label in your order, and we hand them to licensed recyclers.",
    ),
    Point(
        "Consolidated shipping",
        "We group orders by region and ship by road or sea wherever the delivery date allows, "
        "rather than by air.",
    ),
    Point(
        "Parts that last longer",
        "A chain kit that lasts 25,000 km instead of 12,000 halves the waste. We favour "
        "durable compounds and serviceable designs.",
    ),
)

BUSINESS_SUMMARY_INTRO = (
    "From single riders to busy service workshops, this is what our customers have built "
    "with us so far."
)
BUSINESS_SUMMARY = (
    Figure("85+", "countries", "Riders and workshops we ship to."),
    Figure("4500+", "deliveries", "Orders packed and delivered."),
    Figure("4,200+", "happy clients", "Customers who came back for more."),
    Figure("1700+", "feedbacks", "Reviews and ratings from riders."),
)

# How many of the newest reviews the home page shows.
HOME_REVIEWS = 6
