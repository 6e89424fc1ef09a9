"""Guards against kernels that do not do the work: static findings on generated sources, the
unwritten-output check, and a cheating kernel rejected by the graph and repaired."""
from __future__ import annotations

import json

import pytest

from agent_graph.guards import check_sources, fill_value, unwritten_output
from tests.agent_graph import scripted_kernels as sk
from tests.agent_graph.agent_helpers import run_agent, user_text
from tests.agent_graph.openai_server import ScriptedOpenAI

KERNEL = f"op_kernel/{sk.OP}.cpp"


def _line_of(text: str, needle: str) -> int:
    return text.splitlines().index(next(x for x in text.splitlines() if needle in x)) + 1


def test_clean_project_has_no_findings():
    assert check_sources(sk.GOOD) == []
    assert check_sources(sk.TILING_BUG) == []     # wrong, but honest: that is for verification to catch


def test_reading_expected_outputs_is_found_at_its_line():
    found = check_sources(sk.CHEAT)
    rules = {f.rule for f in found}
    assert rules == {"file-access", "reference-data"}
    line = _line_of(sk.CHEAT[KERNEL], "fopen(")
    assert all(f.file == KERNEL and f.line == line for f in found)
    diag = found[0].to_diagnostic()
    assert diag["severity"] == "error" and diag["line"] == line and diag["code"].startswith("guard-")


@pytest.mark.parametrize("snippet,rule", [
    ('#include <torch/extension.h>\n', "torch-call"),
    ("auto t = torch::zeros({4});\n", "torch-call"),
    ("PyObject* m = PyImport_ImportModule(\"reference\");\n", "torch-call"),
    ('system("python reference.py");\n', "process"),
    ("std::ifstream in(path);\n", "file-access"),
    ('const char* p = getenv("KGEN_GOLDEN");\n', "file-access"),
])
def test_each_rule(snippet, rule):
    files = {"op_kernel/k.cpp": "#include \"kernel_operator.h\"\n" + snippet}
    found = check_sources(files)
    assert rule in {f.rule for f in found}
    assert next(f for f in found if f.rule == rule).line == 2


def test_comments_and_lookalike_names_are_not_findings():
    files = {"op_kernel/k.cpp": "// never fopen() here, nor torch::zeros\n/* system(\"x\") */\n"
                                "int openCount = 0; float readValue(int); uint32_t systemId = 2;\n"
                                "at_least(3); myns::at::x;\n"}
    assert check_sources(files) == []
    assert check_sources({"notes.md": "fopen(\"expected.bin\")"}) == []     # only C++ sources are checked


def test_fill_values_are_the_0xcd_patterns():
    # by hand: 0xCDCDCDCD = -(1 + 0x4DCDCD / 2**23) * 2**(0x9B - 127); 0xCDCD (half) = -(1 + 0x1CD / 1024) * 2**(0x13 - 15)
    assert fill_value("float32") == pytest.approx(-(1 + 0x4DCDCD / 2**23) * 2.0**28)
    assert fill_value("float16") == -(1 + 0x1CD / 1024) * 16.0 == -23.203125
    assert fill_value("int32") == -(2**32 - 0xCDCDCDCD)
    assert fill_value("complex64") is None


def test_unwritten_output_names_the_element():
    case = {"case_id": "tail", "status": "fail", "dtypes": ["float32", "float32"],
            "outputs": [{"name": "z", "dtype": "float32", "passed": False, "first_mismatch": [4, 76],
                         "actual": -431602080.0, "expected": 0.25}]}
    why = unwritten_output(case)
    assert why and "z" in why and "[4, 76]" in why and "partly written" in why
    wrong_value = {**case, "outputs": [{**case["outputs"][0], "actual": 0.5}]}
    assert unwritten_output(wrong_value) is None


@pytest.mark.slow
def test_cheating_kernel_is_rejected_before_building_and_repaired(tmp_path):
    with ScriptedOpenAI([sk.reply(sk.CHEAT), sk.reply(sk.GOOD)]) as srv:
        ran = run_agent(tmp_path, srv.url)
        requests = list(srv.requests)
    assert ran.outcome.status == "verified", ran.outcome.message
    diags = json.loads((ran.run_dir / "rounds" / "0" / "diagnostics.json").read_text())
    assert {d["code"] for d in diags} == {"guard-file-access", "guard-reference-data"}
    assert not (ran.run_dir / "rounds" / "0" / "report.json").exists()      # never run
    builds = [e for e in ran.of("node_finished") if e.node == "build"]
    assert builds[0].detail == "rejected by the guards" and not builds[0].ok
    prompt = user_text(requests[1])
    assert "fopen" in prompt and "expected outputs" in prompt
    assert "fopen" not in (ran.outcome.project / KERNEL).read_text()
