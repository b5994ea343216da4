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

Violations named in scripts/lint_rules_allowed.txt ("path: rule: name  # why") are reported
as allowed; an entry that matches nothing fails the run, so the list only shrinks.

    python -m scripts.lint_rules [paths …]     (default: the whole project)
"""

import ast
import importlib
import importlib.util
import pkgutil
import re
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ALLOWED_FILE = ROOT / "scripts" / "lint_rules_allowed.txt"
SKIPPED_DIRS = {".venv", "node_modules", "migrations", "static", "staticfiles", ".git"}
SETTINGS = ROOT / "shop" / "settings"

GUARDED = ("django", "rest_framework", "allauth", "rest_framework_simplejwt")
# Private by name, public by documentation.
DOCUMENTED = {"_meta", "_state", "_db", "_replace", "_asdict", "_fields", "_make"}

PRIVATE = re.compile(r"_[A-Za-z0-9]\w*")  # `_x`, never a dunder (`__init__`) nor `_`


def is_private(name: str) -> bool:
    return bool(PRIVATE.fullmatch(name)) and not name.endswith("__")


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


# --- Other packages' private names ------------------------------------------------------------


@cache
def package_dir(top: str) -> Path | None:
    """The folder of a top-level package of the project or of an installed one."""
    if (ROOT / top / "__init__.py").is_file():
        return ROOT / top
    try:
        spec = importlib.util.find_spec(top)  # finds, imports nothing
    except (ImportError, ValueError):
        return None
    locations = spec.submodule_search_locations if spec else None
    return Path(next(iter(locations))) if locations else None


def module_file(module: str) -> Path | None:
    """The source file of a module of the project or of an installed package."""
    top, _, rest = module.partition(".")
    folder = package_dir(top)
    if folder is None:
        return None
    base = folder.joinpath(*rest.split(".")) if rest else folder
    candidates = (
        [base / "__init__.py"] if not rest else [base.with_suffix(".py"), base / "__init__.py"]
    )
    return next((candidate for candidate in candidates if candidate.is_file()), None)


@cache
def module_source(module: str) -> ast.Module | None:
    path = module_file(module)
    return ast.parse(path.read_text(), str(path)) if path else None


def imported_names(tree: ast.Module, module: str, is_package: bool) -> dict[str, str]:
    """Local name -> dotted origin ("package.module.Name"), relative imports resolved."""
    package = module if is_package else module.rpartition(".")[0]
    names = {}
    for node in tree.body:
        if isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                base = f"{parent}.{base}" if base else parent
            for alias in node.names:
                names[alias.asname or alias.name] = f"{base}.{alias.name}"
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.asname:  # import a.b as c: c is a.b
                    names[alias.asname] = alias.name
                else:  # import a.b: a is a
                    top = alias.name.split(".")[0]
                    names[top] = top
    return names


def resolve(expr: ast.expr, imports: dict[str, str], module: str) -> str | None:
    """The dotted origin of a base-class expression (`Name`, `module.Name`)."""
    dotted = ast.unparse(expr)
    if not re.fullmatch(r"[\w.]+", dotted):
        return None
    head, _, tail = dotted.partition(".")
    if head in imports:
        return f"{imports[head]}.{tail}" if tail else imports[head]
    return f"{module}.{dotted}"  # a class of the same module


def guarded(dotted: str) -> bool:
    return dotted.split(".")[0] in GUARDED


def is_self_attribute(node: ast.AST) -> bool:
    """`self.x` or `cls.x`."""
    return (
        isinstance(node, ast.Attribute)
        and isinstance(node.value, ast.Name)
        and node.value.id in ("self", "cls")
    )


def own_names(cls: ast.ClassDef) -> set[str]:
    """Private names a class body defines: methods, class attributes, `self._x = …`."""
    names = set()
    for node in ast.walk(cls):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.add(node.name)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.add(node.id)
        elif is_self_attribute(node) and isinstance(node.ctx, ast.Store):
            names.add(node.attr)
    return {name for name in names if is_private(name)}


@cache
def class_privates(dotted: str, depth: int = 0) -> frozenset[str]:
    """Private names the guarded classes in `dotted`'s ancestry define (walked in the source,
    nothing imported); a project class only passes its bases' on."""
    module, _, name = dotted.rpartition(".")
    tree = module_source(module) if module and depth < 25 else None
    if tree is None:
        return frozenset()
    path = module_file(module)
    imports = imported_names(tree, module, path is not None and path.name == "__init__.py")
    for node in tree.body:
        if isinstance(node, ast.ClassDef) and node.name == name:
            names = set(own_names(node)) if guarded(dotted) else set()
            for base in node.bases:
                origin = resolve(base, imports, module)
                if origin:
                    names |= class_privates(origin, depth + 1)
            return frozenset(names)
    if name in imports and imports[name] != dotted:  # re-exported from another module
        return class_privates(imports[name], depth + 1)
    return frozenset()


@cache
def guarded_privates() -> frozenset[str]:
    """Every private name the guarded packages define anywhere (a coarse net for attributes of
    objects whose class the linter cannot know)."""
    definition = re.compile(
        r"^\s*(?:async\s+)?def\s+(_\w+)|^\s*(_\w+)\s*(?::[^=\n]*)?=(?!=)|\bself\.(_\w+)\s*=(?!=)"
        r"|\[['\"](_\w+)['\"]\]\s*=(?!=)|setattr\([^,]+,\s*['\"](_\w+)['\"]",
        re.MULTILINE,
    )
    names = set()
    for package in GUARDED:
        spec = importlib.util.find_spec(package)
        for location in spec.submodule_search_locations if spec else []:
            for path in Path(location).rglob("*.py"):
                for match in definition.finditer(path.read_text(errors="ignore")):
                    names.add(next(group for group in match.groups() if group))
    return frozenset(name for name in names if is_private(name))


def project_privates(trees: list[ast.Module]) -> frozenset[str]:
    """Private names the project defines itself (functions, attributes of its own classes,
    annotations such as `.annotate(_total=…)`)."""
    names = set()
    for tree in trees:
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                names.add(node.name)
            elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                names.add(node.id)
            elif isinstance(node, ast.keyword) and node.arg:
                names.add(node.arg)
            elif is_self_attribute(node) and isinstance(node.ctx, ast.Store):
                names.add(node.attr)
    return frozenset(name for name in names if is_private(name))


class PrivateUse(ast.NodeVisitor):
    """Imports, overrides and attribute reads of the guarded packages' private names."""

    def __init__(self, path: str, module: str, tree: ast.Module, own: frozenset[str]):
        self.path, self.module, self.own = path, module, own
        # Tests build other libraries' objects by hand (requests.Response()._content): the net
        # for objects of unknown class is cast over the application's code only.
        self.coarse = not is_test(path)
        self.imports = imported_names(tree, module, path.endswith("__init__.py"))
        self.classes: list[frozenset[str]] = []  # the guarded privates of each enclosing class
        self.local: dict[str, frozenset[str]] = {}  # the same, per class of this module
        self.findings: list[Finding] = []

    def report(self, node: ast.AST, rule: str, name: str, message: str) -> None:
        self.findings.append(Finding(self.path, node.lineno, rule, name, message))

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        origin = node.module or ""
        if node.level == 0 and guarded(origin):
            private_module = [part for part in origin.split(".") if is_private(part)]
            for alias in node.names:
                if private_module or is_private(alias.name):
                    name = f"{origin}.{alias.name}"
                    self.report(node, "private-import", name, f"imports {name}, a private name")

    def visit_Import(self, node: ast.Import) -> None:
        for alias in node.names:
            parts = alias.name.split(".")
            if guarded(alias.name) and any(is_private(part) for part in parts):
                self.report(node, "private-import", alias.name, f"imports {alias.name}")

    def visit_ClassDef(self, node: ast.ClassDef) -> None:
        inherited = set()
        for base in node.bases:
            if isinstance(base, ast.Name) and base.id in self.local:  # a class defined above
                inherited |= self.local[base.id]
            elif origin := resolve(base, self.imports, self.module):
                inherited |= class_privates(origin)
        self.local[node.name] = frozenset(inherited)
        for item in node.body:
            method = isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef)
            if method and item.name in inherited and item.name not in DOCUMENTED:
                message = f"{node.name} overrides {item.name}, a private method of its base"
                self.report(item, "private-override", item.name, message)
        self.classes.append(frozenset(inherited))
        self.generic_visit(node)
        self.classes.pop()

    def visit_Attribute(self, node: ast.Attribute) -> None:
        name = node.attr
        if is_private(name) and name not in DOCUMENTED:
            owner = node.value
            on_self = (isinstance(owner, ast.Name) and owner.id in ("self", "cls")) or (
                isinstance(owner, ast.Call) and ast.unparse(owner.func) == "super"
            )
            inherited = self.classes[-1] if self.classes else frozenset()
            if on_self and name in inherited:
                message = f"{ast.unparse(node)}: a private attribute of a base class"
                self.report(node, "private-attribute", name, message)
            elif (
                not on_self and self.coarse and name in guarded_privates() and name not in self.own
            ):
                message = (
                    f"{ast.unparse(node)}: a private name of Django, DRF, allauth or simplejwt"
                )
                self.report(node, "private-attribute", name, message)
        self.generic_visit(node)

    def visit_Call(self, node: ast.Call) -> None:
        called = ast.unparse(node.func)
        if called.endswith(".__new__") and called != "super().__new__":
            message = f"{called}(): an instance built without its constructor"
            self.report(node, "model-bypass", "__new__", message)
        if called.endswith(".__dict__.update"):
            message = f"{called}(): fields set behind the model's back"
            self.report(node, "model-bypass", "__dict__.update", message)
        self.generic_visit(node)


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
        visitor = PrivateUse(path, module_name(Path(path)), tree, own)
        visitor.visit(tree)
        findings += visitor.findings
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
