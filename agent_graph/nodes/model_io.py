"""One model turn for a candidate: send the messages, stream the reply as Token events, save the prompt
and the reply in the candidate's round folder, parse the reply into project files."""
from __future__ import annotations

from agent_graph.drafter.dsl import DslError, find_program, lower_text
from agent_graph.edit_formats import ParseFailure, parse_reply
from agent_graph.events import Token
from agent_graph.llm import ChatMessage, ModelError
from agent_graph.nodes.context import Cancelled, Ctx
from agent_graph.prompts import op_type_name


def to_plain(messages) -> list[dict]:
    out = []
    for m in messages:
        if isinstance(m, dict):
            out.append({"role": m["role"], "content": m["content"]})
        else:
            out.append({"role": m.role, "content": m.content})
    return out


def to_chat(history: list[dict]):
    return [ChatMessage(role=m["role"], content=m["content"]) for m in history]


def ask(ctx: Ctx, messages, round_no: int, sample: int, node: str, prefix: str = "") -> tuple[str, list[dict]]:
    """The model's reply text and the new history (messages + the reply). ModelError propagates (the
    run ends with status "error"); a cancel raises Cancelled."""
    plain = to_plain(messages)
    ctx.folder.save_json(round_no, sample, f"{prefix}prompt.json", plain)
    ctx.check_cancel()
    try:
        reply = ctx.client().complete(to_chat(plain), on_token=lambda t: ctx.emit(Token(t, node)), cancel=ctx.cancel)
    except ModelError as e:
        if getattr(e, "kind", "") == "cancelled" or ctx.cancel.is_set():
            raise Cancelled("cancelled") from e
        raise
    ctx.folder.save_text(round_no, sample, f"{prefix}reply.md", reply.text)
    return reply.text, plain + [{"role": "assistant", "content": reply.text}]


def parse(text: str, op_name: str):
    """(files, "") or ({}, complaint). A reply holding a ```kgen-dsl block is a tile DSL program: validated and
    lowered to the project's files (docs/dsl.md); an invalid program's complaint names its line."""
    program = find_program(text)
    if program is not None:
        try:
            return lower_text(program, op_type_name(op_name)), ""
        except DslError as e:
            return {}, (f"the kgen-dsl program is invalid: {e} (the line counts from the block's first line). "
                        f"Fix it and send the whole ```kgen-dsl block again")
    res = parse_reply(text, op_name, mode="project")
    if isinstance(res, ParseFailure):
        return {}, res.complaint
    return dict(res.files), ""
