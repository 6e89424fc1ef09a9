"""A task from words: the model writes the PyTorch reference and the shape cases as a kgen spec
(docs/task-spec.md) in the run folder's ``task/``; the run then verifies against them. The written spec
is announced (a Note with its path) so the user can review it, cancel, edit and re-run."""
from __future__ import annotations

import re
from pathlib import Path

from agent_graph.events import Note
from agent_graph.nodes.context import Ctx, RunError
from agent_graph.nodes.model_io import ask
from bench_bridge.api import TASK_FILE, TaskError, load_task

PROMPT = Path(__file__).with_name("prompts") / "spec_from_words.md"
_FENCE = re.compile(r"```(\w+)?[ \t]*([\w./-]*)[^\n]*\n(.*?)\n```", re.S)
MAX_TRIES = 2


def extract(text: str) -> tuple[str, str] | str:
    """(reference.py text, kgen-task.toml text) from a reply, or a complaint."""
    ref = spec = None
    for lang, name, body in _FENCE.findall(text):
        if name.endswith(".py") or (lang == "python" and ref is None):
            ref = ref or body
        elif name.endswith(".toml") or lang == "toml":
            spec = spec or body
    if ref is None or spec is None:
        missing = " and ".join(n for n, v in (("```python reference.py", ref), ("```toml kgen-task.toml", spec)) if v is None)
        return f"no {missing} block found: reply with both fenced blocks"
    return ref, spec


def write_task(ctx: Ctx, words: str) -> str:
    """The spec path the model wrote for ``words`` (RunError when it could not write a valid one)."""
    dest = ctx.run_dir / "task"
    dest.mkdir(parents=True, exist_ok=True)
    messages = [{"role": "user", "content": PROMPT.read_text().replace("{{words}}", words.strip())}]
    complaint = ""
    for attempt in range(MAX_TRIES):
        text, history = ask(ctx, messages, 0, 0, "understand", prefix=f"task{attempt}-")
        got = extract(text)
        if isinstance(got, tuple):
            (dest / "reference.py").write_text(got[0].rstrip() + "\n")
            (dest / TASK_FILE).write_text(got[1].rstrip() + "\n")
            try:
                task = load_task(dest / TASK_FILE)
            except TaskError as e:
                complaint = str(e)
            else:
                ctx.emit(Note(f"the model wrote the reference and {len(task.cases)} shape case(s) for the request: "
                              f"{dest / TASK_FILE} (review them; the kernel is verified against them)"))
                return str(dest / TASK_FILE)
        else:
            complaint = got
        messages = history + [{"role": "user", "content": f"That task cannot be used: {complaint}. Send both blocks again."}]
    raise RunError(f"the model did not write a usable task for the request: {complaint}")
