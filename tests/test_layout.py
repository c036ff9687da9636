"""The package's shape (docs/architecture.md): every module imports alone, no module-level import
closes a circle, a game is one folder (or one slot table entry) with its tests and docs page."""

import ast
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

import solitaire_solver as ss
from solitaire_solver.games import GAMES
from solitaire_solver.games.base import Game

#: The package as imported (installed, or built in place) and the folder it sits in.
ROOT = Path(ss.__file__).parent
TREE = ROOT.parent
#: The repository these tests belong to (its docs, README and tests).
REPO = Path(__file__).resolve().parents[1]


def modules() -> list[str]:
    """Every module of the package, by name: Python files and compiled cores alike."""
    out = []
    for path in sorted(ROOT.rglob("*")):
        if path.suffix not in (".py", ".pyx") or "__pycache__" in path.parts:
            continue
        parts = list(path.relative_to(ROOT.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        if parts[-1] != "__main__":
            out.append(".".join(parts))
    return out


def test_every_module_imports_alone():
    """`python -c "import <module>"` works for each module, in a fresh interpreter each (an
    import that only works after another module was imported hides a circle)."""
    def alone(module):
        p = subprocess.run([sys.executable, "-W", "ignore", "-c", "import " + module],
                           capture_output=True, text=True, cwd=TREE)
        return p.stderr.strip().splitlines()[-1:] if p.returncode else None

    names = [m for m in modules() if not m.endswith("._core") or _built(m)]
    with ThreadPoolExecutor(os.cpu_count() or 1) as pool:  # each waits on its own interpreter
        bad = [(m, err) for m, err in zip(names, pool.map(alone, names)) if err is not None]
    assert bad == []


def _built(module: str) -> bool:
    folder = TREE.joinpath(*module.split(".")[:-1])
    return any(folder.glob(module.split(".")[-1] + ".*.so")) or any(
        folder.glob(module.split(".")[-1] + ".*.pyd"))


def _imports(path: Path, name: str, package: bool) -> set[str]:
    """The package's modules that a Python module imports at its top level (not inside a
    function, not for type checkers only)."""
    tree = ast.parse(path.read_text())
    here = name.split(".") if package else name.split(".")[:-1]
    out = set()
    for node in tree.body:
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            continue
        for n in ([node] if isinstance(node, (ast.Import, ast.ImportFrom)) else []):
            if isinstance(n, ast.Import):
                out |= {a.name for a in n.names if a.name.startswith("solitaire_solver")}
                continue
            base = here[: len(here) - n.level + 1] if n.level else []
            target = ".".join(base + ([n.module] if n.module else []))
            if not target.startswith("solitaire_solver"):
                continue
            for a in n.names:
                sub = f"{target}.{a.name}"
                out.add(sub if sub in ALL else target)
    return out


ALL = set(modules())


def test_no_module_level_import_closes_a_circle():
    graph = {}
    for path in ROOT.rglob("*.py"):
        parts = list(path.relative_to(TREE).with_suffix("").parts)
        package = parts[-1] == "__init__"
        if package:
            parts.pop()
        name = ".".join(parts)
        graph[name] = {m for m in _imports(path, name, package) if m in ALL and m != name}
    # a package's __init__ that gathers its submodules is not part of a circle through them
    done, stack = set(), []

    def visit(m):
        if m in stack:
            raise AssertionError("import circle: " + " -> ".join(stack[stack.index(m):] + [m]))
        if m in done:
            return
        stack.append(m)
        for n in sorted(graph.get(m, ())):
            visit(n)
        stack.pop()
        done.add(m)

    for m in sorted(graph):
        visit(m)


def test_every_game_has_one_core_solve():
    """The core is driven the same way for every game (Game.core_solve); a game adapts it
    through its hooks (core_spec, core_root, core_line, certificate_key)."""
    for g in GAMES:
        assert type(g).core_solve is Game.core_solve, g.name
        assert type(g).answer is Game.answer, g.name


def game_folder(g: Game) -> Path:
    return TREE.joinpath(*type(g).__module__.split(".")[:-1])


@pytest.mark.parametrize("g", GAMES, ids=lambda g: g.name)
def test_a_game_is_its_folder_its_tests_and_its_page(g):
    """What docs/architecture.md lists for a new game: a search game's folder holds its plug-in
    (game.py), reference rules (rules.py) and core (_core.pyx, where it has one); a slot game
    is a table entry whose reference rules module sits in games/slots/. Each game has a docs
    page, a test file and, where it draws pictures, a shape."""
    folder = game_folder(g)
    assert (folder / "game.py").exists(), g.name
    if folder.name == "slots":
        module, _ = g.table.rules.split(":")
        assert TREE.joinpath(*module.split(".")).with_suffix(".py").exists(), g.name
    else:
        assert (folder / "rules.py").exists(), g.name
        assert (g.core is None) == (not (folder / "_core.pyx").exists()), g.name
    assert g.docs and (REPO / "docs" / g.docs).exists(), g.name
    assert f"docs/{g.docs}" in (REPO / "README.md").read_text(), g.name
    assert g.tests and (REPO / "tests" / g.tests).exists(), g.name
    if g.picture:
        from solitaire_solver.pictures.shapes import SHAPES
        assert g.picture in SHAPES, g.name
