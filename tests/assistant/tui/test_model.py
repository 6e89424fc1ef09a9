"""kgen chat with a model endpoint: a real local OpenAI-compatible server (ScriptedOpenAI) streams the
draft into the chat; the compiler's complaint triggers a repair whose diff the Diff tab shows and /undo reverts."""
from __future__ import annotations

import pytest

from tests.agent_graph import scripted_kernels as sk
from tests.agent_graph.openai_server import ScriptedOpenAI
from tests.assistant.tui.helpers import SIZE, chat_text, make_app, plain, submit, wait_until

KERNEL = f"op_kernel/{sk.OP}.cpp"


@pytest.mark.slow
@pytest.mark.anyio
async def test_model_tokens_stream_into_the_chat_and_the_repair_shows_as_a_diff(tmp_path):
    draft = sk.reply(sk.HALLUCINATED)
    with ScriptedOpenAI([{"text": draft, "chunk_size": 40, "chunk_delay": 0.02}, sk.reply(sk.GOOD)]) as srv:
        app = make_app(tmp_path, url=srv.url, profile=False)
        async with app.run_test(size=SIZE) as pilot:
            status = plain(app.query_one("#status"))
            assert f"@ {srv.url}" in status and "(model)" in status
            await submit(pilot, f"/generate {sk.TASK}")
            # part of the reply is in the chat while the model is still sending it
            await wait_until(pilot, lambda: app.chat._stream_msg is not None
                             and 0 < len(app.chat._stream_msg.text_source) < len(draft), 60, "streamed tokens")
            assert draft.startswith(app.chat._stream_msg.text_source)
            await wait_until(pilot, lambda: not app.busy, 600, "the run")
            assert app.view.status == "verified", app.view.message
            assert len(srv.requests) == 2 and srv.requests[0].get("stream") is True
            messages = [t for r, t in app.chat.texts if r == "assistant"]
            assert messages[0] == draft                                # the whole draft, streamed into one message
            assert "ElementwiseAdd" in chat_text(app)                  # the compiler's complaint
            diff = plain(app.query_one("#diff-text"), width=160)
            assert "round 1 (build repair) vs round 0 (draft)" in diff
            assert "-" in diff and "AscendC::ElementwiseAdd" in diff and "+" in diff
            project = tmp_path / "out" / "add2"                       # output root / the task folder's name
            assert app.view.target_project == str(project)
            assert (project / KERNEL).read_text() == sk.GOOD[KERNEL]
            await submit(pilot, "/undo")
            assert (project / KERNEL).read_text() == sk.HALLUCINATED[KERNEL]
            assert "restored round 0 (draft)" in chat_text(app)


@pytest.mark.slow
@pytest.mark.anyio
async def test_fix_repairs_a_broken_project_with_the_model(tmp_path):
    import shutil

    project = tmp_path / "broken"
    shutil.copytree(sk.TASK.parent, project)
    for rel, text in sk.HALLUCINATED.items():
        (project / rel).parent.mkdir(parents=True, exist_ok=True)
        (project / rel).write_text(text)
    with ScriptedOpenAI([sk.reply(sk.GOOD)]) as srv:
        app = make_app(tmp_path, url=srv.url, profile=False)
        async with app.run_test(size=SIZE) as pilot:
            await submit(pilot, f"/fix {project / KERNEL}")            # a file inside the project names it
            assert app.busy and app.job_label == "fix broken"
            await wait_until(pilot, lambda: not app.busy, 600, "the repair")
            assert app.view.status == "verified", app.view.message
            assert (project / KERNEL).read_text() == sk.GOOD[KERNEL]
            assert "AscendC::ElementwiseAdd" in plain(app.query_one("#diff-text"), width=160)
            assert app.session.runs()[-1].kind == "fix"
