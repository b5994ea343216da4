"""The words of the shop's static pages, as plain data.

Everything here is copy, not code: the owner can rewrite any of it (or point the pages at
another module with the same names) without touching a template. The home page reads
SLIDES, QUALITY_POINTS, ENVIRONMENT_POINTS and BUSINESS_SUMMARY; /blogs reads BLOG_POSTS;
/myportfolio reads PORTFOLIO; the footer's trust pages read TRUST_PAGES. Links marked "replace" are placeholders for the owner's own.
"""

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


@dataclass(frozen=True)
class BlogPost:
    question: str
    answer: tuple[str, ...]  # paragraphs


@dataclass(frozen=True)
class Link:
    label: str
    url: str


@dataclass(frozen=True)
class Education:
    degree: str
    school: str
    years: str
    detail: str


@dataclass(frozen=True)
class Project:
    name: str
    summary: str
    stack: tuple[str, ...]
    live_url: str


@dataclass(frozen=True)
class Portfolio:
    name: str
    role: str
    email: str
    introduction: tuple[str, ...]
    education: tuple[Education, ...]
    skills: tuple[tuple[str, tuple[str, ...]], ...]  # (group, skills)
    projects: tuple[Project, ...]
    social: tuple[Link, ...]


# ---------------------------------------------------------------------------------------
# Home page
# ---------------------------------------------------------------------------------------

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

# ---------------------------------------------------------------------------------------
# Blogs: five interview questions about React
# ---------------------------------------------------------------------------------------

BLOG_INTRO = (
    "Short answers to questions that come up in almost every front-end interview about React."
)
BLOG_POSTS = (
    BlogPost(
        question="How will you improve the performance of a React application?",
        answer=(
            "Start by measuring: the React DevTools Profiler shows which components render, "
            "how often and how long they take, so you fix real bottlenecks instead of guessing.",
            "Then cut unnecessary work. Keep state as close as possible to the components "
            "that use it, so an update re-renders a small subtree. Wrap expensive pure "
            "components in React.memo, and keep the props they receive stable with useMemo "
            "and useCallback. Give list items stable keys, and virtualise long lists so only "
            "the visible rows exist in the DOM. Split the bundle with React.lazy and Suspense "
            "so each route loads only its own code, optimise and lazy-load images, and always "
            "ship the production build.",
        ),
    ),
    BlogPost(
        question="What are the different ways to manage a state in a React application?",
        answer=(
            "Local state with useState, or useReducer when the update logic is complex, "
            "covers most needs: it belongs to one component and its children receive it as "
            "props. When siblings need the same data, lift the state up to their closest "
            "common parent.",
            "For values many components read, such as the signed-in user or a theme, the "
            "Context API avoids passing props through every level. Larger applications often "
            "use an external store such as Redux Toolkit, Zustand or Jotai. Data that comes "
            "from a server is best handled by a server-state library like TanStack Query or "
            "SWR, which caches and refetches it. Finally, the URL (route parameters and the "
            "query string) and form libraries hold state of their own.",
        ),
    ),
    BlogPost(
        question="How does prototypical inheritance work?",
        answer=(
            "Every JavaScript object has a hidden link, [[Prototype]], to another object or "
            "to null. When you read a property the object does not have itself, the engine "
            "follows that link and looks on the prototype, then on the prototype's prototype, "
            "until it finds the property or reaches null and returns undefined. This "
            "sequence of objects is the prototype chain.",
            "Object.create(proto) makes an object whose prototype is proto. A function called "
            "with new gives the new object the function's prototype property as its "
            "prototype, so all instances share one copy of each method. The class syntax is "
            "a cleaner way to write the same mechanism. Assigning a property normally creates "
            "an own property on the object, which then shadows the inherited one.",
        ),
    ),
    BlogPost(
        question="Why should you never set the state directly in React?",
        answer=(
            "React only re-renders when you tell it to, through setState or the setter "
            "returned by useState. Writing this.state.count = 5, or pushing onto an array "
            "held in state, changes the data silently: nothing re-renders, and the screen "
            "falls out of step with the data.",
            "React also compares the old and new state by reference. If you mutate an "
            "object and pass the same object back, React sees no change and skips the "
            "update, and React.memo or PureComponent children miss it too. Because updates "
            "are batched and may be applied later, a direct change can also be overwritten "
            "by a pending update. Always create a new object or array, and use the updater "
            "form, setCount(c => c + 1), when the next value depends on the previous one.",
        ),
    ),
    BlogPost(
        question="What is a unit test? Why should we write unit tests?",
        answer=(
            "A unit test checks the smallest testable piece of code, such as a function, a "
            "custom hook or a single component, in isolation. It gives the unit a known "
            "input, replaces slow or outside dependencies like network calls with fakes, and "
            "asserts the output or behaviour. In React projects this usually means Jest or "
            "Vitest with React Testing Library.",
            "Unit tests run in milliseconds, so they give fast feedback while you code and in "
            "continuous integration. They catch regressions the moment a change breaks "
            "something that used to work, document how each piece is meant to behave, and "
            "let you refactor with confidence. Code that is easy to unit-test also tends to "
            "be better designed: small, focused and loosely coupled.",
        ),
    ),
)

# ---------------------------------------------------------------------------------------
# Portfolio (the developer's page, not shop behaviour)
# ---------------------------------------------------------------------------------------

PORTFOLIO = Portfolio(
    name="Alex Morgan",
    role="Full-stack web developer",
    email="alex.morgan@example.com",  # replace
    introduction=(
        "I build fast, accessible web applications with Python, Django and React, from the "
        "database schema to the last pixel of the interface.",
        "I care about software that is simple to run and pleasant to use: clear business "
        "rules on the server, server-rendered pages that load quickly, and interactive "
        "islands only where they earn their weight. This motorcycle-parts shop is one of "
        "those projects.",
    ),
    education=(
        Education(
            degree="BSc in Computer Science and Engineering",
            school="State University of Technology",
            years="2017 - 2021",
            detail="Final-year project: a route planner for delivery fleets.",
        ),
        Education(
            degree="Full-stack Web Development certificate",
            school="City Coding Bootcamp",
            years="2021 - 2022",
            detail="JavaScript, React, Node.js, MongoDB and deployment.",
        ),
    ),
    skills=(
        ("Front end", ("HTML5", "CSS3", "Tailwind CSS", "JavaScript (ES2020+)", "React")),
        ("Back end", ("Python", "Django", "Django REST framework", "Node.js", "Express")),
        ("Data", ("PostgreSQL", "SQLite", "MongoDB", "Redis")),
        ("Tools", ("Git and GitHub", "pytest", "Playwright", "Docker", "Linux")),
    ),
    projects=(
        Project(
            name="Throttle & Gear",
            summary="This shop: motorcycle parts with sign-in, orders with stock "
            "reservation, card payments, reviews and an admin dashboard.",
            stack=("Django", "React islands", "PostgreSQL", "Stripe"),
            live_url="/",
        ),
        Project(
            name="Trail Log",
            summary="A ride journal for adventure riders: GPX upload, route maps, "
            "fuel and service reminders.",
            stack=("React", "Node.js", "MongoDB"),
            live_url="https://trail-log.example.com/",  # replace
        ),
        Project(
            name="Garage Booker",
            summary="Online booking for a motorcycle service workshop, with time slots, "
            "e-mail reminders and a mechanic's day view.",
            stack=("Django", "HTMX", "PostgreSQL"),
            live_url="https://garage-booker.example.com/",  # replace
        ),
    ),
    social=(
        Link("GitHub", "https://github.com/"),  # replace
        Link("LinkedIn", "https://www.linkedin.com/"),  # replace
        Link("X", "https://x.com/"),  # replace
    ),
)


# ---------------------------------------------------------------------------------------
# Trust pages (/shipping-returns, /privacy, /terms, /contact), linked from the footer
# ---------------------------------------------------------------------------------------


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
