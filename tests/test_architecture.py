"""The import rules of docs/architecture.md, checked on the real import graph (grimp, the engine of
import-linter; pyproject.toml's [tool.importlinter] holds the same layers for `lint-imports`):

- layers: assistant > lsp > agent_graph > retrieval | bench_bridge (a package imports only those
  below it; retrieval and bench_bridge not each other);
- faces: an import that crosses packages names the other package's face (FACES), never its insides;
- no import cycle between modules of one package (imports inside functions count);
- an import inside a function says why on its line or the line above (``# lazy: ...`` for a measured
  start-up cost, ``# optional: ...`` for an optional dependency).
"""
from __future__ import annotations

import ast
from pathlib import Path

import grimp
import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("assistant", "lsp", "agent_graph", "retrieval", "bench_bridge")
# higher layers first; a layer may import any layer after it, none before it
LAYERS = (("assistant",), ("lsp",), ("agent_graph",), ("retrieval", "bench_bridge"))
FACES = {
    "lsp": {"lsp", "lsp.api"},
    "agent_graph": {"agent_graph", "agent_graph.api", "agent_graph.events", "agent_graph.settings"},
    "retrieval": {"retrieval", "retrieval.api", "retrieval.symbols"},
    "bench_bridge": {"bench_bridge", "bench_bridge.api", "bench_bridge.events", "bench_bridge.settings"},
}
REASONS = ("# lazy:", "# optional:")


@pytest.fixture(scope="module")
def graph():
    return grimp.build_graph(*PACKAGES, exclude_type_checking_imports=True, cache_dir=None)


def _layer(pkg: str) -> int:
    return next(i for i, names in enumerate(LAYERS) if pkg in names)


def _cross_imports(graph) -> list[tuple[str, str, int]]:
    out = []
    for m in sorted(graph.modules):
        a = m.split(".")[0]
        if a not in PACKAGES:
            continue
        for t in sorted(graph.find_modules_directly_imported_by(m)):
            b = t.split(".")[0]
            if b in PACKAGES and b != a:
                lines = [d["line_number"] for d in graph.get_import_details(importer=m, imported=t)]
                out.append((m, t, min(lines) if lines else 0))
    return out


def _where(module: str, line: int) -> str:
    path = ROOT / Path(*module.split("."))
    path = path / "__init__.py" if path.is_dir() else path.with_suffix(".py")
    return f"{path.relative_to(ROOT)}:{line}"


def test_layers(graph):
    bad = [f"{_where(m, ln)}: {m} imports {t}" for m, t, ln in _cross_imports(graph)
           if _layer(t.split(".")[0]) <= _layer(m.split(".")[0])]
    assert not bad, "imports against the layers (assistant > lsp > agent_graph > retrieval | bench_bridge):\n" + "\n".join(bad)


def test_cross_package_imports_use_faces(graph):
    bad = [f"{_where(m, ln)}: {m} imports {t} (face of {t.split('.')[0]}: {', '.join(sorted(FACES[t.split('.')[0]]))})"
           for m, t, ln in _cross_imports(graph) if t.split(".")[0] in FACES and t not in FACES[t.split(".")[0]]]
    assert not bad, "imports past another package's face:\n" + "\n".join(bad)


def _cycles(graph, pkg: str) -> list[list[str]]:
    """Strongly connected components of more than one module among ``pkg``'s modules (Tarjan)."""
    mods = sorted(m for m in graph.modules if m == pkg or m.startswith(pkg + "."))
    # a module importing its own package's __init__ (the package's face, e.g. a registry) is not counted
    edges = {m: sorted(t for t in graph.find_modules_directly_imported_by(m)
                       if t in mods and t != m and not m.startswith(t + ".")) for m in mods}
    index, low, stack, on, out, n = {}, {}, [], set(), [], [0]

    def visit(v: str) -> None:
        index[v] = low[v] = n[0]
        n[0] += 1
        stack.append(v)
        on.add(v)
        for w in edges[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for m in mods:
        if m not in index:
            visit(m)
    return out


@pytest.mark.parametrize("pkg", PACKAGES)
def test_no_import_cycles(graph, pkg):
    cycles = _cycles(graph, pkg)
    assert not cycles, f"import cycles in {pkg}:\n" + "\n".join(" <-> ".join(c) for c in cycles)


def _function_imports(path: Path) -> list[tuple[int, str]]:
    src = path.read_text()
    lines = src.splitlines()
    out = []

    class V(ast.NodeVisitor):
        depth = 0

        def visit_FunctionDef(self, node):
            self.depth += 1
            self.generic_visit(node)
            self.depth -= 1

        visit_AsyncFunctionDef = visit_FunctionDef

        def _imp(self, node):
            if self.depth:
                here = lines[node.lineno - 1]
                above = lines[node.lineno - 2] if node.lineno > 1 else ""
                if not any(r in here or r in above for r in REASONS):
                    out.append((node.lineno, here.strip()))

        visit_Import = visit_ImportFrom = _imp

    V().visit(ast.parse(src))
    return out


def test_imports_inside_functions_say_why():
    bad = []
    for pkg in PACKAGES:
        for path in sorted((ROOT / pkg).rglob("*.py")):
            bad += [f"{path.relative_to(ROOT)}:{ln}: {text}" for ln, text in _function_imports(path)]
    assert not bad, (f"{len(bad)} imports inside functions without '# lazy: <cost>' or '# optional: <dependency>' "
                     "(move them to the top, or say why):\n" + "\n".join(bad))
