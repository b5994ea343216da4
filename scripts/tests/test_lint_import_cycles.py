"""scripts/lint_import_cycles.py finds every circle of imports between modules (at the top of a
file or inside a function, within a package or across two), names its modules and the imports
that close it, and lets imports that never run (`if TYPE_CHECKING:`) and plain chains pass."""

from pathlib import Path
from textwrap import dedent

import pytest

from scripts import lint_import_cycles
from scripts.lint_import_cycles import import_cycles, import_graph, main, project_packages

SOURCES = {
    # A circle of three inside one package, one import of it inside a function.
    "loop_a/__init__.py": "",
    "loop_a/one.py": "from loop_a import two\n",
    "loop_a/two.py": "def later():\n    from loop_a import three\n",
    "loop_a/three.py": "import loop_a.one\n",
    "loop_a/four.py": "from loop_a import one\n",  # imports the circle, is not in it
    # A circle across two packages.
    "loop_b/__init__.py": "",
    "loop_b/m.py": "from loop_c import n\n",
    "loop_c/__init__.py": "",
    "loop_c/n.py": "from loop_b.m import something\n",
    # No circle: the way back is for type checkers only.
    "chain/__init__.py": "",
    "chain/x.py": "from chain import y\n",
    "chain/y.py": """
        from typing import TYPE_CHECKING

        if TYPE_CHECKING:
            from chain import x
    """,
}


@pytest.fixture
def packages(tmp_path, monkeypatch) -> Path:
    for path, text in SOURCES.items():
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_text(dedent(text))
    monkeypatch.syspath_prepend(str(tmp_path))
    return tmp_path


def test_every_circle_is_found_once_with_its_modules(packages):
    graph = import_graph(["loop_a", "loop_b", "loop_c", "chain"])

    assert import_cycles(graph) == [
        ["loop_a.one", "loop_a.three", "loop_a.two"],
        ["loop_b.m", "loop_c.n"],
    ]


def test_it_fails_naming_the_circles_and_their_imports(packages, capsys):
    assert main(["loop_a", "chain"]) == 1

    out = capsys.readouterr().out
    assert "Import circle of 3 modules: loop_a.one, loop_a.three, loop_a.two" in out
    assert "  loop_a.two -> loop_a.three (line 2)" in out
    assert "loop_a.four" not in out
    assert "chain" not in out.split("import circle(s)")[0]


def test_it_passes_without_circles(packages, capsys):
    assert main(["chain"]) == 0
    assert "No import circles among 3 modules of chain." in capsys.readouterr().out


def test_the_whole_project_is_checked(packages):
    (packages / "frontend").mkdir()
    (packages / "frontend" / "__init__.py").write_text("")
    assert project_packages(packages) == ["chain", "loop_a", "loop_b", "loop_c"]
    assert {"shop", "core", "orders", "scripts", "bench", "tests"} <= set(
        project_packages(lint_import_cycles.ROOT)
    )
