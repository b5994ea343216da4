"""The private-internals and model-bypass rules of scripts/lint_rules.py: which private names
(`_name`) Django, DRF, allauth and simplejwt define, read from their sources (nothing of theirs
is imported), and a visitor that finds the project's imports, overrides and reads of them.
"""

import ast
import importlib.util
import re
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GUARDED = ("django", "rest_framework", "allauth", "rest_framework_simplejwt")
# Private by name, public by documentation.
DOCUMENTED = {"_meta", "_state", "_db", "_replace", "_asdict", "_fields", "_make"}
PRIVATE = re.compile(r"_[A-Za-z0-9]\w*")  # `_x`, never a dunder (`__init__`) nor `_`


def is_private(name: str) -> bool:
    return bool(PRIVATE.fullmatch(name)) and not name.endswith("__")


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

    def __init__(
        self, path: str, module: str, tree: ast.Module, own: frozenset[str], *, is_test: bool
    ):
        self.module, self.own = module, own
        # Tests build other libraries' objects by hand (requests.Response()._content): the net
        # for objects of unknown class is cast over the application's code only.
        self.coarse = not is_test
        self.imports = imported_names(tree, module, path.endswith("__init__.py"))
        self.classes: list[frozenset[str]] = []  # the guarded privates of each enclosing class
        self.local: dict[str, frozenset[str]] = {}  # the same, per class of this module
        self.findings: list[tuple[int, str, str, str]] = []  # (line, rule, name, message)

    def report(self, node: ast.AST, rule: str, name: str, message: str) -> None:
        self.findings.append((node.lineno, rule, name, message))

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
