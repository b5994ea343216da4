"""The environment variables are a contract: docs/configuration.md names every one the settings
read, and every one it names is read by the settings or by a deployment file."""

import ast
import re
from pathlib import Path

import environ

ROOT = Path(__file__).resolve().parents[2]
SETTINGS = sorted((ROOT / "shop" / "settings").glob("*.py"))
GUNICORN = ROOT / "deploy" / "gunicorn.conf.py"
COMPOSE = ROOT / "compose.yaml"
NAME = re.compile(r"[A-Z][A-Z0-9_]+")
ENV_READERS = {"env", "str", "bool", "int", "float", "list", "get"}  # env.str(…), os.environ.get


def documented() -> set[str]:
    """The names in the first column of docs/configuration.md's table of variables."""
    text = (ROOT / "docs" / "configuration.md").read_text()
    table = text.split("## Variables", 1)[1].split("\n\n", 2)[1]
    rows = [line for line in table.splitlines() if line.startswith("| `")]
    return {name for row in rows for name in re.findall(r"`([A-Z][A-Z0-9_]+)`", row.split("|")[1])}


def read_by(path: Path) -> set[str]:
    """Names read from the environment in a Python file: `env.str("X", …)`, `env("X")`,
    `os.environ.get("X")`, `os.environ["X"]`."""
    names = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Call) and node.args:
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            key = node.args[0]
        elif isinstance(node, ast.Subscript) and ast.unparse(node.value) == "os.environ":
            name, key = "get", node.slice
        else:
            continue
        literal = key.value if isinstance(key, ast.Constant) else None
        if name in ENV_READERS and isinstance(literal, str) and NAME.fullmatch(literal):
            names.add(literal)
    return names


def read_by_settings() -> set[str]:
    return set().union(*(read_by(path) for path in SETTINGS))


def read_by_deployment() -> set[str]:
    """gunicorn's configuration file and the variables compose.yaml substitutes."""
    return read_by(GUNICORN) | set(re.findall(r"\$\{([A-Z][A-Z0-9_]+)", COMPOSE.read_text()))


def test_the_reader_finds_what_the_settings_read():
    names = read_by_settings()

    assert {"DATABASE_URL", "SECRET_KEY", "ENV_FILE", "MAX_HELD_SHARE", "LOG_LEVEL"} <= names
    assert {"AWS_ACCESS_KEY_ID", "THROTTLE_PAYMENTS", "RATE_LIMIT_LOGIN_FAILED"} <= names
    assert len(documented()) > 40


def test_every_variable_the_settings_read_is_documented():
    assert read_by_settings() - documented() == set()


def test_every_documented_variable_is_read_by_the_settings_or_a_deployment_file():
    assert documented() - read_by_settings() - read_by_deployment() == set()


def test_each_deployment_has_a_cache_key_prefix_of_its_own(settings):
    """CACHE_KEY_PREFIX, by default a digest of where the database is: another database (a
    staging copy, another shop) on the same Redis never reads this one's keys, and the
    prefix never shows the database's password."""
    from shop.settings.base import default_cache_key_prefix

    def prefix(url: str) -> str:
        return default_cache_key_prefix(environ.Env.db_url_config(url))

    shop = prefix("postgres://shop:secret@db.example:5432/shop")
    assert shop == prefix("postgres://shop:another-secret@db.example:5432/shop")
    assert shop != prefix("postgres://shop:secret@db.example:5432/shop_staging")
    assert shop != prefix("postgres://shop:secret@db2.example:5432/shop")
    assert "secret" not in shop and shop.startswith("shop-")
    if "KEY_PREFIX" in settings.CACHES["default"]:  # Redis (a cache of this process needs none)
        assert settings.CACHES["default"]["KEY_PREFIX"] == settings.CACHE_KEY_PREFIX
