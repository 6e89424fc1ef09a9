"""The rendered prompts: what the model is told about the task, the hardware and its mistakes, and that
the conversation stays short. Numbers are checked against the sources they come from (the task's csv,
the SoC table read independently with tomllib), and the answer template must parse with parse_reply."""
from __future__ import annotations

import tomllib
from dataclasses import asdict
from pathlib import Path

import pytest

from agent_graph.edit_formats import ParsedReply, parse_reply
from agent_graph.llm import ChatMessage
from agent_graph.prompts import (build_repair_messages, correctness_repair_messages, draft_messages,
                                 parse_repair_messages, render_files)
from bench_bridge.report import CaseReport, OutputCheck
from bench_bridge.tasks import load_task

DATA = Path(__file__).resolve().parents[1] / "data" / "tasks"
REPO = Path(__file__).resolve().parents[2]
PROJECT = DATA / "npukb_scaled_add" / "answer" / "0"
FILES = {str(p.relative_to(PROJECT)): p.read_text() for p in sorted(PROJECT.rglob("*")) if p.is_file()}


def cost_table(soc: str) -> dict:
    """The facts of ``soc`` in the SoC table (bench_bridge/soc.toml), its ``inherits`` chain applied."""
    socs = tomllib.loads((REPO / "bench_bridge" / "soc.toml").read_text())["soc"]
    chain = [soc]
    while socs[chain[-1]].get("inherits"):
        chain.append(socs[chain[-1]]["inherits"])
    sec: dict = {}
    for name in reversed(chain):
        sec.update(socs[name])
    return {k: v["value"] for k, v in sec.items() if isinstance(v, dict)}


@pytest.fixture(scope="module")
def npukb_task():
    return load_task(DATA / "npukb_scaled_add")


def test_draft_follows_the_npukernelbench_layout(npukb_task, monkeypatch):
    monkeypatch.delenv("KGEN_SOC", raising=False)
    msgs = draft_messages(npukb_task, ["DataCopyPad(dst, src, params, padParams) copies non-aligned lengths."],
                          "scaled_add")
    assert [m.role for m in msgs] == ["system", "user"]
    user = msgs[1].content
    assert "`y = x1 + alpha * x2`" in user                                        # api_desc.md
    csv = (DATA / "npukb_scaled_add" / "validation" / "test_cases.csv").read_text().strip().splitlines()
    for row in csv:
        assert row in user                                                        # every test case row
    table = cost_table("910B2")
    assert f"vector_core_cnt={int(table['vector_cores'])}" in user and "vector_core_cnt=48" in user
    assert f"ai_core_cnt={int(table['ai_cores'])}" in user
    assert f"ub_size={int(table['ub_bytes'])}" in user and "ub_size=196608" in user
    assert "DataCopyPad(dst, src, params, padParams)" in user                     # retrieved docs
    order = [user.index(f"================== {p} ==================")
             for p in ("op_host/scaled_add_tiling.h", "op_host/scaled_add.cpp", "op_kernel/scaled_add.cpp")]
    assert order == sorted(order)
    assert "REGISTER_TILING_DATA_CLASS(ScaledAdd, ScaledAddTilingData)" in user
    assert "module.py" not in user and "class Model" not in user                  # NPUKernelBench: no reference
    assert "KernelScaledAdd" not in user                                          # never the answer


def test_the_answer_template_is_a_parseable_reply(npukb_task):
    user = draft_messages(npukb_task, [], "scaled_add")[1].content
    template = user.split("[Answer template]", 1)[1]
    r = parse_reply(template, "scaled_add")
    assert isinstance(r, ParsedReply) and r.format == "npukb"
    assert "__aicore__ void scaled_add(" in r.files["op_kernel/scaled_add.cpp"]


def test_hardware_block_follows_the_soc(npukb_task, monkeypatch):
    monkeypatch.setenv("KGEN_SOC", "910B4")
    user = draft_messages(npukb_task, [], "scaled_add")[1].content
    assert f"vector_core_cnt={int(cost_table('910B4')['vector_cores'])}" in user and "vector_core_cnt=40" in user
    assert "SoC_version=Ascend910B4" in user


def test_kernelbench_task_shows_the_reference():
    task = load_task(DATA / "kernelbench_add.py")
    user = draft_messages(task, [], "add_custom")[1].content
    assert "def get_inputs():" in user and "return a + b" in user
    assert "get_inputs()" in user.split("[Input 2: test_cases.csv]", 1)[1].split("[Input 3")[0]
    assert "================== op_kernel/add_custom.cpp ==================" in user


def test_spec_cases_show_shapes_dtypes_and_args():
    task = load_task(DATA / "spec_scaled_add")
    user = draft_messages(task, [], "ScaledAdd")[1].content
    assert "tail;float32[5, 77], float32[5, 77];[0.25]" in user
    assert "multi-core;float16[64, 300], float16[64, 300];[3.0]" in user


def test_kernel_only_mode_gives_the_host_and_asks_for_kernel_impl():
    task = load_task(DATA / "spec_inplace_scale")
    user = draft_messages(task, [], "inplace_scale", mode="kernel", kernel_params=["x"])[1].content
    assert "<kernel_impl>" in user and "</kernel_impl>" in user
    assert "TILING_DATA_FIELD_DEF(uint32_t, totalLength);" in user                # the given tiling header
    assert "void inplace_scale(GM_ADDR x, GM_ADDR workspace, GM_ADDR tiling)" in user
    kernel = (DATA / "spec_inplace_scale" / "op_kernel" / "inplace_scale.cpp").read_text()
    body = [ln for ln in kernel.splitlines() if "DataCopy" in ln]
    assert body and not any(ln in user for ln in body)                            # the answer kernel is not shown


def long_history() -> list[ChatMessage]:
    return [ChatMessage("system", "SYSTEM"), ChatMessage("user", "TASK PROMPT"),
            ChatMessage("assistant", "<think>long reasoning 1</think> draft 1"), ChatMessage("user", "repair 1"),
            ChatMessage("assistant", "<think>long reasoning 2</think> draft 2"), ChatMessage("user", "repair 2"),
            ChatMessage("assistant", "draft 3")]


def test_build_repair_quotes_diagnostics_and_keeps_history_short():
    diags = [{"severity": "error", "message": "no member named 'Addd' in namespace 'AscendC'",
              "file": "/root/.cache/kgen/projects/abc/src/op_kernel/scaled_add.cpp", "line": 62, "column": 13,
              "code": "compile", "source": "compiler", "block": -1, "notes": ["did you mean 'Add'?"]},
             {"severity": "error", "message": "DataCopy reads past the end of GM tensor x1", "file": "op_kernel/scaled_add.cpp",
              "line": 40, "column": 0, "code": "gm-out-of-bounds", "source": "runtime", "block": 47, "notes": []},
             {"severity": "warning", "message": "unused variable 'n'", "file": "op_host/scaled_add.cpp", "line": 5,
              "column": 1, "code": "compile", "notes": []}]
    files = dict(FILES)
    msgs = build_repair_messages(long_history(), files, diags, ["Add(dst, src0, src1, count): element-wise sum."])
    assert [m.role for m in msgs] == ["system", "user", "assistant", "user"]
    assert msgs[1].content == "TASK PROMPT"
    assert "reasoning" not in msgs[2].content and "draft" not in msgs[2].content
    assert parse_reply(msgs[2].content, "scaled_add").files == files               # the current files, clean
    user = msgs[3].content
    assert "op_kernel/scaled_add.cpp:62: error: no member named 'Addd' in namespace 'AscendC'" in user
    assert "note: did you mean 'Add'?" in user
    assert "op_kernel/scaled_add.cpp:40: error: DataCopy reads past the end of GM tensor x1 [gm-out-of-bounds] (block 47)" in user
    assert "op_host/scaled_add.cpp:5: warning: unused variable 'n'" in user
    line62 = files["op_kernel/scaled_add.cpp"].splitlines()[61]
    assert f"op_kernel/scaled_add.cpp:62> {line62}" in user                       # the code at the line
    assert "Add(dst, src0, src1, count)" in user
    assert user.index(": error:") < user.index(": warning:")
    assert "3 files" in user and "================== op_host/scaled_add_tiling.h ==================" in user


def test_correctness_repair_from_a_real_case_report():
    out = OutputCheck(name="y", dtype="float32", shape=[3, 7, 33], passed=False, max_abs_error=2.5,
                      max_rel_error=0.75, mismatches=33, total=693, first_mismatch=[2, 6, 0], expected=1.25,
                      actual=0.0, threshold=1e-5)
    case = CaseReport(case_id="1", params={"case_id": 1, "shape": "[3, 7, 33]", "alpha": 2.0, "dtype": "float32"},
                      input_shapes=[[3, 7, 33]] * 2, dtypes=["float32"] * 2, status="fail", outputs=[out],
                      message="output y: 33 of 693 elements differ")
    crash = CaseReport(case_id="2", params={"shape": "[4096]"}, input_shapes=[[4096]], dtypes=["bfloat16"],
                       status="error", message="UB overflow: 200704 bytes allocated, 196608 available")
    msgs = correctness_repair_messages(long_history(), FILES, [asdict(case), asdict(crash)])
    assert [m.role for m in msgs] == ["system", "user", "assistant", "user"]
    user = msgs[3].content
    assert "case 1 (shape=[3, 7, 33], alpha=2.0, dtype=float32)" in user
    assert "output y (float32, shape [3, 7, 33]): 33 of 693 elements wrong" in user
    assert "first at index [2, 6, 0]: expected 1.25, got 0" in user
    assert "max abs error 2.5, max rel error 0.75 (threshold 1e-05)" in user
    assert "case 2 (shape=[4096]): the run failed: UB overflow: 200704 bytes allocated, 196608 available" in user


def test_parse_repair_sends_the_complaint_verbatim_and_the_tail_of_a_long_reply():
    complaint = "no op_kernel/scaled_add.cpp block found; expected three files: ..."
    long_reply = "x" * 20000 + "THE END"
    hist = long_history()[:-1] + [ChatMessage("assistant", long_reply)]
    msgs = parse_repair_messages(hist, complaint)
    assert [m.role for m in msgs] == ["system", "user", "assistant", "user"]
    assert msgs[2].content.endswith("THE END") and len(msgs[2].content) < 13000
    assert complaint in msgs[3].content


def test_kernel_only_repair_uses_kernel_impl():
    files = {"op_kernel/scaled_add.cpp": FILES["op_kernel/scaled_add.cpp"]}
    msgs = build_repair_messages([ChatMessage("user", "T")], files, [], [])
    assert msgs[1].content.startswith("<kernel_impl>")
    assert parse_reply(msgs[1].content, "scaled_add", mode="kernel").files == files
    assert "<kernel_impl>" in msgs[2].content and "the file" in msgs[2].content


def test_render_files_orders_tiling_host_kernel():
    text = render_files({p: FILES[p] for p in reversed(list(FILES))})
    idx = [text.index(p) for p in ("op_host/scaled_add_tiling.h", "op_host/scaled_add.cpp", "op_kernel/scaled_add.cpp")]
    assert idx == sorted(idx)
