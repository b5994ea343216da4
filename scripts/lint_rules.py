"""The project's own lint rules, run by `make lint` (ruff and import-linter check the rest).

- shadowed-builtin: no template tag library of the project registers a tag or filter under the
  name of one of Django's own (`url`, `include`, `date`, `static`, …), and no library given to
  TEMPLATES' "builtins" does: a template would silently run something else than Django's.
- private-import, private-override, private-attribute: no private internals (`_name`) of Django,
  DRF, allauth or simplejwt are imported, overridden or reached into; they change without
  notice between releases. Django documents `_meta`, `Model._state` and `Manager._db` (used in
  its own examples): those are public, as are namedtuples' `_replace`, `_asdict`, `_fields`.
- model-bypass: no model instance built without its constructor (`Model.__new__`) or filled
  through `__dict__.update`.
  (These two kinds of rules: scripts/lint_privates.py.)
- test-name: an app's test file `<app>/tests/test_X.py` is named after the module it tests: X is
  a module of that app (its stem, a package's name, or its path in the app joined by `_`:
  `views`, `placing`, `services`, `services_placing`, `management_commands_seed_demo`,
  `migrations`), optionally followed by `_<aspect>` (`test_services_placing_races.py`). The
  top-level tests/ test the whole shop and are named by what they test across apps.
- shop-word: the kernel (`core/`, but its tests) speaks no shop word (SHOP_WORDS: bike, cart,
  order, part, booking, …) in the names it defines (variables, functions, classes, arguments,
  attributes it sets) or in its string literals (docstrings aside): what varies with the shop
  is a hook an app fills in (core.caching.pages.variants, person_fields_not_shown).

Violations named in scripts/lint_rules_allowed.txt ("path: rule: name  # why") are reported
as allowed; an entry that matches nothing fails the run, so the list only shrinks.

    python -m scripts.lint_rules [paths …]     (default: the whole project)
"""

import ast
import importlib
import pkgutil
import re
import sys
from collections.abc import Collection, Iterable, Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path, PurePosixPath

from scripts.lint_privates import PrivateUse, module_source, project_privates

ROOT = Path(__file__).resolve().parent.parent
ALLOWED_FILE = ROOT / "scripts" / "lint_rules_allowed.txt"
SKIPPED_DIRS = {".venv", "node_modules", "migrations", "static", "staticfiles", ".git"}
SETTINGS = ROOT / "shop" / "settings"


@dataclass(frozen=True, order=True)
class Finding:
    path: str
    line: int
    rule: str
    name: str
    message: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.rule}: {self.message}"


# --- Django's template names ---------------------------------------------------------------


@cache
def django_template_names() -> frozenset[str]:
    """Every tag and filter of Django's built-in libraries and of django.templatetags."""
    from django.template.engine import Engine
    from django.templatetags import __path__ as templatetags_path

    modules = [*Engine.default_builtins]
    modules += [f"django.templatetags.{m.name}" for m in pkgutil.iter_modules(templatetags_path)]
    names = set()
    for module in modules:
        library = importlib.import_module(module).register
        names |= set(library.tags) | set(library.filters)
    return frozenset(names)


def registered_names(tree: ast.Module) -> Iterator[tuple[str, int]]:
    """(name, line) of each tag or filter a library registers: `@register.tag`,
    `@register.filter("name")`, `@register.simple_tag(name="name")`, `register.tag("name", f)`."""
    libraries = {
        target.id
        for node in ast.walk(tree)
        if isinstance(node, ast.Assign) and ast.unparse(node.value).endswith("Library()")
        for target in node.targets
        if isinstance(target, ast.Name)
    }

    def on_library(expr: ast.expr) -> bool:
        func = expr.func if isinstance(expr, ast.Call) else expr
        return (
            isinstance(func, ast.Attribute)
            and isinstance(func.value, ast.Name)
            and func.value.id in libraries
        )

    def given_name(call: ast.Call) -> str | None:
        for keyword in call.keywords:
            if keyword.arg == "name" and isinstance(keyword.value, ast.Constant):
                return keyword.value.value
        first = call.args[0] if call.args else None
        if isinstance(first, ast.Constant) and isinstance(first.value, str):
            return first.value
        return None

    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.ClassDef):
            for decorator in node.decorator_list:
                if on_library(decorator):
                    call = decorator if isinstance(decorator, ast.Call) else None
                    yield (call and given_name(call)) or node.name, node.lineno
        elif isinstance(node, ast.Expr) and isinstance(node.value, ast.Call):
            name = given_name(node.value) if on_library(node.value) else None
            if name:
                yield name, node.lineno


def shadowed_builtins(path: str, tree: ast.Module) -> Iterator[Finding]:
    for name, line in registered_names(tree):
        if name in django_template_names():
            message = f"the library registers `{name}`, the name of one of Django's own"
            yield Finding(path, line, "shadowed-builtin", name, message)


def template_builtins(
    path: str, tree: ast.Module, checked: dict[str, ast.Module]
) -> Iterator[Finding]:
    """TEMPLATES' "builtins" libraries (a dict key in the settings) that redefine Django's; a
    library is read from the files being checked, else from its own file."""
    for node in ast.walk(tree):
        if not isinstance(node, ast.Dict):
            continue
        for key, value in zip(node.keys, node.values, strict=True):
            if isinstance(key, ast.Constant) and key.value == "builtins":
                for module in ast.literal_eval(value):
                    source = checked.get(module) or module_source(module)
                    names = [n for n, _ in registered_names(source)] if source else []
                    for name in sorted(set(names) & django_template_names()):
                        message = f'TEMPLATES "builtins" loads {module}, which redefines `{name}`'
                        yield Finding(path, key.lineno, "shadowed-builtin", name, message)


# --- Test files named by the module they test -------------------------------------------------


def module_names(paths: Iterable[str]) -> set[str]:
    """What a test file may be named after, from the paths (relative to their app) of the app's
    modules: each stem, each package's name, and each path joined by `_` from the app down
    (`management/commands/seed_demo.py`: seed_demo, management, commands,
    management_commands, management_commands_seed_demo). Tests are no module to name."""
    names = set()
    for path in paths:
        *packages, file = PurePosixPath(path).parts
        if not file.endswith(".py") or "tests" in packages:
            continue
        stem = file.removesuffix(".py")
        inner = packages if stem == "__init__" else [*packages, stem]
        names |= set(inner) | {"_".join(inner[:depth]) for depth in range(1, len(inner) + 1)}
    return names


@cache
def modules_on_disk(app: str) -> frozenset[str]:
    """The names of an app's modules as its folder holds them (none for a folder not there)."""
    folder = ROOT / app
    skipped = SKIPPED_DIRS - {"migrations"}  # `test_migrations_0011.py` tests a migration
    paths = [
        str(path.relative_to(folder))
        for path in folder.rglob("*.py")
        if not set(path.relative_to(folder).parts) & skipped
    ]
    return frozenset(module_names(paths))


def misnamed_tests(paths: Collection[str]) -> Iterator[Finding]:
    """Each app test file `<app>/tests/test_X.py` whose X is no module of its app and does not
    start with one and `_`; the app's modules are those on disk and those among `paths`."""
    for path in paths:
        app, *inner = PurePosixPath(path).parts
        if app == "tests" or inner[:1] != ["tests"] or not inner[-1].startswith("test_"):
            continue
        tested = inner[-1].removeprefix("test_").removesuffix(".py")
        names = modules_on_disk(app) | module_names(
            str(PurePosixPath(other).relative_to(app))
            for other in paths
            if PurePosixPath(other).is_relative_to(app)
        )
        if not any(tested == name or tested.startswith(f"{name}_") for name in names):
            message = (
                f"{inner[-1]} names no module of {app}: name it test_<module>.py or "
                "test_<module>_<aspect>.py after the module whose code its tests exercise"
            )
            yield Finding(path, 1, "test-name", tested, message)


# --- The kernel speaks no shop word ----------------------------------------------------------

KERNEL = "core"
SHOP_WORDS = frozenset(
    {
        *("bike", "bikes", "cart", "carts", "order", "orders", "part", "parts", "booking"),
        *("bookings", "garage", "vehicle", "vehicles", "stock", "price", "prices", "review"),
        *("reviews", "catalog", "fitment", "shopper", "shoppers", "checkout"),
    }
)


def words(text: str) -> list[str]:
    """The words of a name or a text, lower case: `activeBike_id` -> active, bike, id."""
    spaced = re.sub(r"([a-z0-9])([A-Z])", r"\1 \2", text)
    return re.findall(r"[a-z]+", spaced.lower())


def defined_names(tree: ast.Module) -> Iterator[tuple[str, int]]:
    """(text, line) of each name the module defines and each string literal but docstrings;
    names it only uses (another library's `order_by`) are not its words."""
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            yield node.name, node.lineno
        elif isinstance(node, ast.arg):
            yield node.arg, node.lineno
        elif isinstance(node, ast.Name | ast.Attribute) and isinstance(node.ctx, ast.Store):
            yield (node.id if isinstance(node, ast.Name) else node.attr), node.lineno
        elif isinstance(node, ast.keyword) and node.arg:
            yield node.arg, node.value.lineno
        elif (
            isinstance(node, ast.Constant)
            and isinstance(node.value, str)
            and id(node) not in docstrings
        ):
            yield node.value, node.lineno


def shop_words(path: str, tree: ast.Module) -> Iterator[Finding]:
    for text, line in defined_names(tree):
        for word in sorted(set(words(text)) & SHOP_WORDS):
            message = f"the kernel speaks no shop word: `{word}` in {text!r} (a hook instead)"
            yield Finding(path, line, "shop-word", word, message)


# --- Running ---------------------------------------------------------------------------------


def is_test(path: str) -> bool:
    parts = Path(path).parts
    return "tests" in parts or parts[-1].startswith("test_") or parts[-1] == "conftest.py"


def project_files(paths: list[Path]) -> list[Path]:
    files = []
    for path in paths:
        candidates = [path] if path.is_file() else sorted(path.rglob("*.py"))
        for candidate in candidates:
            parts = (
                set(candidate.relative_to(ROOT).parts) if candidate.is_relative_to(ROOT) else set()
            )
            if candidate.suffix == ".py" and not parts & SKIPPED_DIRS:
                files.append(candidate)
    return files


def module_name(path: Path) -> str:
    """core/api.py -> core.api; core/__init__.py -> core (a path relative to the project)."""
    relative = path.with_suffix("")
    parts = relative.parts[:-1] if relative.name == "__init__" else relative.parts
    return ".".join(parts)


def check_sources(sources: dict[str, str]) -> list[Finding]:
    """Findings for {relative path: source}; the project's own private names come from these."""
    trees = {path: ast.parse(text, path) for path, text in sources.items()}
    modules = {module_name(Path(path)): tree for path, tree in trees.items()}
    own = project_privates(list(trees.values()))
    findings = []
    for path, tree in trees.items():
        if "templatetags" in Path(path).parts:
            findings += shadowed_builtins(path, tree)
        if Path(path).parent == SETTINGS.relative_to(ROOT):
            findings += template_builtins(path, tree, modules)
        if Path(path).parts[0] == KERNEL and not is_test(path):
            findings += shop_words(path, tree)
        visitor = PrivateUse(path, module_name(Path(path)), tree, own, is_test=is_test(path))
        visitor.visit(tree)
        findings += [Finding(path, *finding) for finding in visitor.findings]
    findings += misnamed_tests(list(sources))
    return sorted(findings)


def read_allowed(text: str) -> dict[tuple[str, str, str], str]:
    """{(path, rule, name): why} from lines "path: rule: name  # why"."""
    allowed = {}
    for line in text.splitlines():
        entry, _, why = line.partition("#")
        if entry.strip():  # a line that is only a comment explains the entries below it
            path, rule, name = (part.strip() for part in entry.split(":", 2))
            allowed[(path, rule, name)] = why.strip()
    return allowed


def judge(
    findings: list[Finding], allowed: dict[tuple[str, str, str], str], *, whole: bool
) -> tuple[list[str], list[str]]:
    """(problems, allowed findings): a finding not allowed is a problem, and so is, on a run
    over the whole project, an allowed entry that matches nothing."""
    problems, passed, used = [], [], set()
    for finding in findings:
        key = (finding.path, finding.rule, finding.name)
        if key in allowed:
            used.add(key)
            passed.append(f"allowed: {finding}")
        else:
            problems.append(str(finding))
    if whole:  # a partial run cannot tell a stale entry
        for key in sorted(set(allowed) - used):
            name = ALLOWED_FILE.relative_to(ROOT)
            problems.append(f"{name}: {': '.join(key)} matches nothing any more: remove it")
    return problems, passed


def main(argv: list[str]) -> int:
    paths = [ROOT / arg for arg in argv] or [ROOT]
    files = project_files(paths)
    findings = check_sources({str(f.relative_to(ROOT)): f.read_text() for f in files})
    allowed = read_allowed(ALLOWED_FILE.read_text() if ALLOWED_FILE.exists() else "")
    problems, passed = judge(findings, allowed, whole=not argv)
    print(*passed, *problems, sep="\n")
    print(f"lint_rules: {len(problems)} problem(s), {len(passed)} allowed (scripts/lint_rules.py)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
