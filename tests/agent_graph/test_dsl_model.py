"""The agent asking a model for the tile DSL (agent.reply_format = "dsl"), against a real OpenAI-compatible
HTTP server with scripted replies: kgen validates the program, lowers it, builds and verifies it like any
draft; an invalid program gets a parse repair that names its line."""
from __future__ import annotations

from pathlib import Path

import pytest

from tests.agent_graph.agent_helpers import run_agent, user_text
from tests.agent_graph.openai_server import ScriptedOpenAI
from tests.agent_graph.scripted_kernels import TASK as ADD_TASK

DATA = Path(__file__).resolve().parents[1] / "data" / "dsl"

ADD_PROGRAM = """k = Kernel("flat")
x = k.input(["float32"])
y = k.input(["float32"])
z = k.output(x)
xTile = k.tile(x)
yTile = k.tile(y)
zTile = k.tile(z)
k.add(zTile, xTile, yTile)
"""


def _reply(program: str, preface: str = "The plan: one flat run of elements, split over the cores.") -> str:
    return f"{preface}\n\n```kgen-dsl\n{program}```\n"


def _answer_with_example(tmp_path, name: str, reply_format: str):
    """The agent on tests/data/dsl/<name>, the model answering with that example's program: verified in one turn."""
    program = (DATA / name / "program.dsl").read_text()
    with ScriptedOpenAI([_reply(program, "The plan fits the DSL's schedules.")]) as srv:
        ran = run_agent(tmp_path, srv.url, task=DATA / name / "kgen-task.toml", reply_format=reply_format)
        requests = list(srv.requests)
    assert ran.outcome.status == "verified", ran.outcome.message
    assert len(requests) == 1 and [c["status"] for c in ran.outcome.report["cases"]] == ["pass", "pass"]
    return ran, user_text(requests[0]), requests[0]["messages"][0]["content"]


def test_model_answers_in_the_dsl_and_kgen_lowers_builds_and_verifies(tmp_path):
    ran, prompt, system = _answer_with_example(tmp_path, "softmax", "dsl")
    assert "```kgen-dsl" in prompt and "k.reduce_max" in prompt and "f32-odd-row" in prompt
    assert "You describe custom operators" in system
    kernel = (ran.outcome.project / "op_kernel" / "softmax_rows_custom.cpp").read_text()
    assert "lowered by kgen from a tile DSL program" in kernel and "ReduceMax(reduceOut, vals, reduceWork, count);" in kernel
    assert [(e.round, e.reason) for e in ran.of("files_written")] == [(0, "draft")]


def test_invalid_dsl_gets_a_repair_turn_naming_the_line(tmp_path):
    bad = ADD_PROGRAM.replace("k.add(zTile, xTile, yTile)", "k.add(zTile, xTile, wTile)")
    with ScriptedOpenAI([_reply(bad), _reply(ADD_PROGRAM, "Fixed: the second operand is yTile.")]) as srv:
        ran = run_agent(tmp_path, srv.url, task=ADD_TASK, reply_format="dsl")
        requests = list(srv.requests)
    assert ran.outcome.status == "verified", ran.outcome.message
    assert len(requests) == 2
    repair = user_text(requests[1])
    assert "the kgen-dsl program is invalid: line 8: wTile is not defined" in repair
    assert [(e.round, e.reason) for e in ran.of("files_written")] == [(1, "parse repair")]
    assert [c["status"] for c in ran.outcome.report["cases"]] == ["pass", "pass"]


def test_wrong_results_of_a_dsl_program_get_a_dsl_repair(tmp_path):
    wrong = ADD_PROGRAM.replace("k.add(zTile", "k.sub(zTile")
    with ScriptedOpenAI([_reply(wrong), _reply(ADD_PROGRAM, "Fixed: z is the sum.")]) as srv:
        ran = run_agent(tmp_path, srv.url, task=ADD_TASK, reply_format="dsl")
        requests = list(srv.requests)
    assert ran.outcome.status == "verified", ran.outcome.message
    assert len(requests) == 2
    repair = requests[1]["messages"]
    # the model sees its program (not the C++ kgen lowered it to), the wrong cases, and is asked for a program
    assert repair[-2]["role"] == "assistant" and "k.sub(zTile, xTile, yTile)" in repair[-2]["content"]
    assert "op_kernel" not in repair[-2]["content"]
    assert "its results are wrong" in repair[-1]["content"] and "case even" in repair[-1]["content"]
    assert "```kgen-dsl" in repair[-1]["content"]
    assert [(e.round, e.reason) for e in ran.of("files_written")] == [(0, "draft"), (1, "correctness repair")]


@pytest.mark.slow
def test_auto_asks_for_the_dsl_when_no_template_covers_the_task(tmp_path):
    # two matmuls (the second by the identity): the offline drafter takes one matmul per reference and refuses
    # it, so "auto" asks the model for a DSL program, whose one cube block computes the same product
    ran, prompt, _ = _answer_with_example(tmp_path, "matmul_identity", "auto")
    assert "```kgen-dsl" in prompt and "k.matmul" in prompt


def test_auto_keeps_ascendc_when_a_template_covers_the_task(tmp_path):
    # the fp32 add is a drafter template's: "auto" asks for AscendC files (the reply here is a DSL program
    # anyway, which kgen lowers whatever the setting)
    with ScriptedOpenAI([_reply(ADD_PROGRAM)]) as srv:
        ran = run_agent(tmp_path, srv.url, task=ADD_TASK, reply_format="auto")
        requests = list(srv.requests)
    assert ran.outcome.status == "verified", ran.outcome.message
    assert "```kgen-dsl" not in user_text(requests[0]) and "op_kernel/add_custom.cpp" in user_text(requests[0])
