"""scripts/lint_rules.py catches each kind of violation, and lets the documented and the
project's own names pass. Each case is a small source given to the checker under a path."""

from textwrap import dedent

import pytest

from scripts import lint_rules
from scripts.lint_rules import check_sources, judge, read_allowed


def found(sources: dict[str, str]) -> list[tuple[str, str, str]]:
    """(path, rule, name) of every finding in the given {path: source}."""
    findings = check_sources({path: dedent(text) for path, text in sources.items()})
    return [(finding.path, finding.rule, finding.name) for finding in findings]


def found_in(text: str, path: str = "app/things.py") -> list[tuple[str, str]]:
    return [(rule, name) for _, rule, name in found({path: text})]


# --- A template library never takes the name of one of Django's own -------------------------

LIBRARY = "app/templatetags/shop_tags.py"


@pytest.mark.parametrize(
    "registration",
    [
        "@register.tag\ndef url(parser, token): ...",
        "@register.simple_tag(name='static')\ndef fast_static(path): ...",
        "@register.filter('date')\ndef my_date(value): ...",
        "def my_include(parser, token): ...\nregister.tag('include', my_include)",
        "@register.simple_tag(takes_context=True)\ndef csrf_token(context): ...",
    ],
)
def test_a_library_redefining_a_django_tag_or_filter_is_caught(registration):
    source = f"from django import template\n\nregister = template.Library()\n\n{registration}\n"

    assert [rule for rule, _ in found_in(source, LIBRARY)] == ["shadowed-builtin"]


def test_a_library_with_names_of_its_own_passes():
    source = """
        from django import template

        register = template.Library()

        @register.filter
        def money(value): ...

        @register.simple_tag(name="island_assets")
        def assets(name): ...
    """
    assert found_in(source, LIBRARY) == []


def test_templates_builtins_loading_such_a_library_is_caught():
    settings = """
        TEMPLATES = [{"OPTIONS": {"builtins": ["app.templatetags.speedy"]}}]
    """
    library = """
        from django import template
        register = template.Library()

        @register.tag(name="url")
        def quick_url(parser, token): ...
    """
    findings = found({"shop/settings/base.py": settings, "app/templatetags/speedy.py": library})

    assert ("shop/settings/base.py", "shadowed-builtin", "url") in findings
    assert ("app/templatetags/speedy.py", "shadowed-builtin", "url") in findings


def test_templates_builtins_of_harmless_libraries_pass():
    settings = 'TEMPLATES = [{"OPTIONS": {"builtins": ["app.templatetags.money"]}}]'
    library = "from django import template\nregister = template.Library()\n"

    assert found({"shop/settings/base.py": settings, "app/templatetags/money.py": library}) == []


# --- No private internals of Django, DRF, allauth, simplejwt ----------------------------------


@pytest.mark.parametrize(
    ("line", "name"),
    [
        ("from django.utils._os import safe_join", "django.utils._os.safe_join"),
        (
            "from rest_framework.fields import _UnvalidatedField",
            "rest_framework.fields._UnvalidatedField",
        ),
        ("from allauth.account.internal import _private", "allauth.account.internal._private"),
        ("import django.utils._os", "django.utils._os"),
    ],
)
def test_importing_a_private_name_or_module_is_caught(line, name):
    assert found_in(line) == [("private-import", name)]


def test_importing_private_names_of_other_packages_passes():
    assert (
        found_in("from requests import _internal_utils\nfrom django.utils.text import slugify")
        == []
    )


def test_overriding_and_calling_a_private_method_of_a_base_is_caught():
    source = """
        from allauth.account.adapter import DefaultAccountAdapter
        from allauth.account.auth_backends import AuthenticationBackend as AllauthBackend

        class Adapter(DefaultAccountAdapter):
            def _get_login_attempts_cache_key(self, request, **credentials):
                return super()._get_login_attempts_cache_key(request, **credentials)

        class Backend(AllauthBackend):
            def authenticate(self, request, **credentials):
                return self._check_password(None, "")
    """
    assert found_in(source) == [
        ("private-override", "_get_login_attempts_cache_key"),
        ("private-attribute", "_get_login_attempts_cache_key"),
        ("private-attribute", "_check_password"),
    ]


def test_reaching_into_a_drf_serializer_is_caught():
    source = """
        from rest_framework import serializers

        class Rules(serializers.Serializer):
            name = serializers.CharField()

        rules = Rules()
        rules._declared_fields = Rules._declared_fields
    """
    assert found_in(source) == [("private-attribute", "_declared_fields")] * 2


def test_a_private_base_attribute_reached_through_a_project_class_is_caught():
    source = """
        from django.core.cache.backends.redis import RedisCache

        class Cache(RedisCache):
            pass

        class QuickCache(Cache):
            def client(self):
                return self._class
    """
    assert found_in(source) == [("private-attribute", "_class")]


def test_the_documented_and_the_projects_own_private_names_pass():
    source = """
        from django.contrib.auth.models import BaseUserManager
        from django.db.models import Count, Window
        from urllib.parse import urlsplit

        class UserManager(BaseUserManager):
            def _create_user(self, email):  # the base has none: the project's own
                user = self.model(email=email)
                user.save(using=self._db)  # Django's managers documentation uses it
                return user

        def fields(model, obj, rows):
            names = [field.name for field in model._meta.get_fields()]
            fresh = obj._state.adding
            rows = rows.annotate(_total=Window(Count("*")))
            return names, fresh, rows[0]._total, urlsplit("/a")._replace(path="/b")
    """
    assert found_in(source) == []


def test_an_unknown_objects_private_name_counts_in_the_application_not_in_tests():
    source = "def content(response):\n    return response._content\n"

    assert found_in(source) == [("private-attribute", "_content")]
    assert found({"app/things.py": "", "app/tests/test_things.py": source}) == []


# --- No model instance built behind its constructor -------------------------------------------


def test_building_an_instance_without_its_constructor_is_caught():
    source = """
        def row(model, columns, values):
            instance = model.__new__(model)
            instance.__dict__.update(zip(columns, values))
            return instance
    """
    assert found_in(source) == [("model-bypass", "__new__"), ("model-bypass", "__dict__.update")]


def test_a_constructor_of_ones_own_passes():
    source = """
        class Once:
            def __new__(cls, *args):
                return super().__new__(cls)
    """
    assert found_in(source) == []


# --- A test file is named by the module it tests ---------------------------------------------

APP = {  # an app's modules, as check_sources is given them
    "app/views.py": "",
    "app/services/__init__.py": "",
    "app/services/placing.py": "",
    "app/management/commands/seed_demo.py": "",
    "app/migrations/0011_booking_is_its_lines.py": "",
}


def named_tests_found(*names: str) -> list[tuple[str, str, str]]:
    """The findings for test files of `app` with these names, beside the app's modules."""
    return found({**APP, **{f"app/tests/{name}": "" for name in names}})


@pytest.mark.parametrize(
    "name",
    [
        "test_pages.py",  # a topic, not a module
        "test_viewsets.py",  # a module's name must end where an aspect starts (`_`)
        "test_placings.py",
        "test_helpers.py",  # a helper of the tests (app/tests/helpers.py) is no module it tests
    ],
)
def test_a_test_file_named_after_no_module_of_its_app_is_caught(name):
    stem = name.removeprefix("test_").removesuffix(".py")
    assert named_tests_found(name, "helpers.py") == [(f"app/tests/{name}", "test-name", stem)]


@pytest.mark.parametrize(
    "name",
    [
        "test_views.py",
        "test_views_payment.py",  # a module and an aspect
        "test_placing.py",  # a module's stem
        "test_services.py",  # a package
        "test_services_placing_races.py",  # the path in the app joined by `_`, an aspect
        "test_seed_demo.py",
        "test_management_commands_seed_demo.py",
        "test_migrations_0011.py",
        "test_migrations.py",
    ],
)
def test_a_test_file_named_after_a_module_of_its_app_passes(name):
    assert named_tests_found(name) == []


def test_a_module_of_another_app_does_not_count():
    sources = {"other/views.py": "", "app/models.py": "", "app/tests/test_views.py": ""}

    assert found(sources) == [("app/tests/test_views.py", "test-name", "views")]


def test_the_shops_own_tests_and_the_tests_helpers_are_not_judged():
    """tests/ tests the whole shop across apps; an app's helpers and fixtures are no test files."""
    sources = {"tests/test_journeys.py": "", "tests/e2e/test_cart.py": "", "app/views.py": ""}
    sources |= {"app/tests/factories.py": "", "app/tests/conftest.py": ""}

    assert found(sources) == []


def test_an_apps_modules_are_read_from_its_folder_too():
    """A run over some files only (`python -m scripts.lint_rules orders/tests`) still knows the
    app's modules: those on disk, with the migrations, without the tests."""
    assert found({"orders/tests/test_services_placing_races.py": ""}) == []
    assert found({"orders/tests/test_migrations_0011.py": ""}) == []
    assert found({"orders/tests/test_fair_holds.py": ""}) == [
        ("orders/tests/test_fair_holds.py", "test-name", "fair_holds")
    ]
    assert found({"orders/tests/test_factories.py": ""})  # orders/tests/factories.py


# --- The kernel speaks no shop word -------------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "word"),
    [
        ('BIKE = "b"', "bike"),
        ('COOKIE = "bike"', "bike"),
        ("def cart_count(request): ...", "cart"),
        ("def total(orders): ...", "orders"),
        ("class PartCache: ...", "part"),
        ("self.activeBooking = None", "booking"),
        ('key = f"stock:{pk}"', "stock"),
    ],
)
def test_a_shop_word_in_the_kernel_is_caught(line, word):
    assert found_in(line, "core/caching/things.py") == [("shop-word", word)]


def test_the_kernel_may_use_other_libraries_names_and_explain_in_docstrings():
    source = """
        '''Kept pages: an app names what they show, say "part:12".'''

        def sorted_rows(rows, field):
            '''Rows in order of `field` (a part of the page).'''
            return rows.order_by(field)
    """
    assert found_in(source, "core/paging.py") == []


def test_shop_words_outside_the_kernel_and_in_its_tests_pass():
    assert found_in('BIKE = "bike"', "catalog/garage.py") == []
    assert found_in('BIKE = "bike"', "core/caching/tests/test_pages.py") == []


# --- The allow-list ---------------------------------------------------------------------------


def test_allowed_findings_pass_and_an_entry_matching_nothing_fails():
    allowed = read_allowed(
        "# why these wait\n"
        "app/things.py: model-bypass: __new__  # the cache work removes it\n"
        "app/gone.py: private-attribute: _declared_fields  # fixed meanwhile\n"
    )
    findings = check_sources(
        {"app/things.py": "x = Part.__new__(Part)\ny = obj.__dict__.update()\n"}
    )

    problems, passed = judge(findings, allowed, whole=True)

    assert len(findings) == 2
    assert passed == [f"allowed: {findings[0]}"]
    assert problems[0] == str(findings[1])  # the __dict__.update, not allowed
    assert "app/gone.py: private-attribute: _declared_fields matches nothing" in problems[1]
    assert judge(findings, allowed, whole=False)[0] == [str(findings[1])]  # a partial run


@pytest.mark.slow  # every file of the project parsed and checked: 3-4 s (`make lint` runs it too)
def test_the_project_passes_with_its_allow_list(capsys):
    assert lint_rules.main([]) == 0, capsys.readouterr().out
