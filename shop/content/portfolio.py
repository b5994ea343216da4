"""/myportfolio: the developer's page, not shop behaviour. Links marked "replace" are
placeholders for the owner's own."""

from dataclasses import dataclass


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
