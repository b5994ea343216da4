"""The public pages of the shop: home, blogs and portfolio."""

import html
import re
from pathlib import Path

import pytest
from django.conf import settings
from django.db import connection
from django.test.utils import CaptureQueriesContext

from catalog.tests.factories import PartFactory
from core.templatetags.islands import dist_url, manifest
from core.tests.islands import page_text
from reviews.tests.factories import ReviewFactory
from shop import content

BANNERS = Path(settings.BASE_DIR) / "static" / "img" / "banner"
PURCHASE_LINK = re.compile(r'<a href="/purchaseintent/(\d+)"[^>]*>Purchase  Now </a>')


def queries(client, path) -> int:
    with CaptureQueriesContext(connection) as ctx:
        assert client.get(path).status_code == 200
    return len(ctx)


@pytest.mark.django_db
@pytest.mark.parametrize("path", ["/", "/allparts", "/blogs", "/myportfolio"])
def test_no_island_only_the_site_script(client, path):
    PartFactory()
    ReviewFactory()
    body = client.get(path).content.decode()
    # All Parts adds the bike picker's script (no React either).
    names = ["site", "bike-picker"] if path == "/allparts" else ["site"]
    assert re.findall(r'<script type="module" src="([^"]+)"', body) == [
        dist_url(manifest()[name]["file"]) for name in names
    ]
    assert len(re.findall(r"<script\b", body)) == len(names)
    assert "data-island" not in body


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("path", "title", "description"),
    [
        ("/", "· Motorcycle parts shipped worldwide</title>", "more than 85 countries"),
        ("/blogs", "<title>Blogs: React interview questions ·", "five React interview questions"),
        (
            "/myportfolio",
            "<title>Alex Morgan, Full-stack web developer · Portfolio</title>",
            "education, skills, projects",
        ),
    ],
)
def test_each_page_has_its_title_and_meta_description(client, path, title, description):
    body = client.get(path).content.decode()
    assert title in body
    meta = re.search(r'<meta name="description" content="([^"]*)">', body)
    assert description in meta.group(1)


@pytest.mark.django_db
class TestHome:
    def test_slide_banner_is_css_only_with_prev_and_next_links(self, client):
        body = client.get("/").content.decode()
        assert 'class="carousel w-full"' in body
        for n, slide in enumerate(content.SLIDES, start=1):
            assert f'id="slide-{n}"' in body
            assert f'<img src="/static/{slide.image}" alt="{slide.alt}"' in body
            assert html.escape(slide.heading) in body
        # each slide's arrows point at its neighbours, wrapping round
        arrows = re.findall(r'<a href="#slide-(\d)"[^>]*aria-label="(Previous|Next) slide"', body)
        assert arrows == [
            ("3", "Previous"), ("2", "Next"),
            ("1", "Previous"), ("3", "Next"),
            ("2", "Previous"), ("1", "Next"),
        ]  # fmt: skip

    def test_banner_images_are_small_titled_svgs(self):
        files = sorted(BANNERS.glob("*.svg"))
        assert {f"img/banner/{f.name}" for f in files} == {s.image for s in content.SLIDES}
        for file in files:
            svg = file.read_text()
            assert file.stat().st_size < 6 * 1024, file.name
            assert re.search(r"<title[^>]*>[^<]{10,}</title>", svg), file.name
            assert "<script" not in svg

    def test_the_first_6_parts_newest_first_as_cards(self, client):
        parts = PartFactory.create_batch(7)
        newest_six = [p.pk for p in reversed(parts)][:6]
        response = client.get("/")
        ids = [int(pk) for pk in PURCHASE_LINK.findall(response.content.decode())]
        assert ids == newest_six
        text = page_text(response)
        assert "Price per unit: $25.50" in text
        assert "Minimum Order Quantity: 2" in text
        assert "Available Quantity: 50" in text
        assert 'alt="' + parts[-1].name + '"' in response.content.decode()

    def test_quality_and_environment_sections(self, client):
        text = page_text(client.get("/"))
        assert "Quality Assurance" in text
        assert "Our Environmental Commitment" in text
        for point in (*content.QUALITY_POINTS, *content.ENVIRONMENT_POINTS):
            assert point.title in text
            assert point.text in text

    def test_business_summary_figures_and_labels(self, client):
        text = page_text(client.get("/"))
        for figure in (
            "85+ countries",
            "4500+ deliveries",
            "4,200+ happy clients",
            "1700+ feedbacks",
        ):
            assert figure in text

    def test_customer_reviews_with_ratings_out_of_5(self, client):
        ReviewFactory(name="Marco Rossi", review="The chain kit fitted perfectly.", ratings=4)
        ReviewFactory(name="Aisha Khan", review="Pads <b>bite</b> well.", ratings=2)
        response = client.get("/")
        body, text = response.content.decode(), page_text(response)
        assert "What Our Customers Say" in text
        assert "Aisha Khan" in text and "Marco Rossi" in text
        assert text.index("Aisha Khan") < text.index("Marco Rossi")  # newest first
        assert "The chain kit fitted perfectly." in text
        assert "Pads &lt;b&gt;bite&lt;/b&gt; well." in body
        assert "4 out of 5" in text and "2 out of 5" in text
        assert 'role="img" aria-label="4 out of 5 stars"' in body
        assert 'role="img" aria-label="2 out of 5 stars"' in body

    def test_shows_only_the_newest_reviews(self, client):
        reviews = ReviewFactory.create_batch(content.HOME_REVIEWS + 2)
        body = client.get("/").content.decode()
        assert body.count("out of 5 stars") == content.HOME_REVIEWS
        assert reviews[-1].review in body

    def test_empty_shop(self, client):
        text = page_text(client.get("/"))
        assert "No parts are listed yet." in text
        assert "No reviews yet." in text

    def test_queries_do_not_grow_with_parts_or_reviews(self, client, django_assert_max_num_queries):
        PartFactory()
        ReviewFactory()
        small = queries(client, "/")
        PartFactory.create_batch(30)
        ReviewFactory.create_batch(30)
        assert queries(client, "/") == small
        with django_assert_max_num_queries(2):  # the parts and the reviews
            client.get("/")

    def test_queries_for_a_signed_in_visitor_are_constant(self, client, user):
        client.force_login(user)
        PartFactory()
        small = queries(client, "/")
        PartFactory.create_batch(10)
        ReviewFactory.create_batch(10)
        assert queries(client, "/") == small


@pytest.mark.django_db
class TestBlogs:
    QUESTIONS = (
        "How will you improve the performance of a React application?",
        "What are the different ways to manage a state in a React application?",
        "How does prototypical inheritance work?",
        "Why should you never set the state directly in React?",
        "What is a unit test? Why should we write unit tests?",
    )

    def test_five_question_cards_in_a_3_column_grid(self, client):
        response = client.get("/blogs")
        assert response.status_code == 200
        body = response.content.decode()
        grid = body.index('class="grid grid-cols-1 lg:grid-cols-3')
        cards = re.findall(
            r'<article class="card[^"]*">\s*<div class="card-body[^"]*">\s*<h2[^>]*>([^<]+)</h2>',
            body[grid:],
        )
        assert [html.unescape(q) for q in cards] == list(self.QUESTIONS)

    def test_every_answer_is_on_the_page(self, client):
        text = page_text(client.get("/blogs"))
        for post in content.BLOG_POSTS:
            for paragraph in post.answer:
                assert paragraph in text
            words = len(" ".join(post.answer).split())
            assert 80 <= words <= 150, (post.question, words)

    def test_queries(self, client, django_assert_max_num_queries):
        with django_assert_max_num_queries(0):
            client.get("/blogs")


@pytest.mark.django_db
class TestPortfolio:
    def test_sections(self, client):
        response = client.get("/myportfolio")
        assert response.status_code == 200
        body, text = response.content.decode(), page_text(response)
        me = content.PORTFOLIO
        assert re.search(rf"<h1[^>]*>{me.name}</h1>", body)
        for heading in ("Introduction", "Education", "Skills", "Projects", "Find me online"):
            assert heading in text
        for paragraph in me.introduction:
            assert paragraph in text
        for item in me.education:
            assert item.degree in text and item.school in text
        for _group, skills in me.skills:
            for skill in skills:
                assert skill in text

    def test_three_projects_with_live_links(self, client):
        body = client.get("/myportfolio").content.decode()
        assert len(content.PORTFOLIO.projects) == 3
        for project in content.PORTFOLIO.projects:
            assert html.escape(project.name) in body
            assert re.search(rf'<a href="{re.escape(project.live_url)}"[^>]*>Live site', body)

    def test_social_links(self, client):
        body = client.get("/myportfolio").content.decode()
        for link in content.PORTFOLIO.social:
            assert re.search(rf'<a href="{re.escape(link.url)}"[^>]*>{link.label}</a>', body)

    def test_trailing_slash_and_no_queries(self, client, django_assert_max_num_queries):
        with django_assert_max_num_queries(0):
            assert client.get("/myportfolio/").status_code == 200
