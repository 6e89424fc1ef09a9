"""One draft's memo of front-end analyses: each shape case is traced once per front end.

Planning a task whose cases need different kernels (``variants.plan_keyed``) tries growing groups of cases,
and a foreach task plans one item at a time: the same case reaches the front ends again and again. A trace
(``torch.export`` and its decompositions) takes seconds, so a task of 50 cases took many minutes to draft.
``draft_scope()`` opens a memo for one draft; ``analysed`` returns a private copy of a case's graph (or raises
its recorded error) when the same front end already read the same case of the same reference module.
The memo keeps the case objects alive while it lives, so their ids stay theirs.
"""
from __future__ import annotations

import contextlib
import contextvars
import copy
from collections.abc import Callable, Iterator
from typing import Any

_MEMO: contextvars.ContextVar[dict | None] = contextvars.ContextVar("kgen_drafter_memo", default=None)


@contextlib.contextmanager
def draft_scope() -> Iterator[None]:
    """A memo for the analyses of one draft (nested scopes share the outer one)."""
    if _MEMO.get() is not None:
        yield
        return
    token = _MEMO.set({})
    try:
        yield
    finally:
        _MEMO.reset(token)


def analysed(analyser: Callable, mod: Any, init: Any, ins: Any, read: Callable[[], Any], private: bool = True) -> Any:
    """``read()`` (the front end ``analyser`` on reference module ``mod``'s case ``(init, ins)``), once per draft; a
    private copy unless ``private`` is False (a result its callers only read)."""
    memo = _MEMO.get()
    if memo is None:
        return read()
    key = (analyser, id(mod), id(init), id(ins))
    if key not in memo:
        try:
            memo[key] = (mod, init, ins, read(), None)
        except Exception as e:   # the refusal is the result too: recorded, raised again for each caller
            memo[key] = (mod, init, ins, None, e)
    *_, graph, error = memo[key]
    if error is not None:
        raise error
    return copy.deepcopy(graph) if private else graph
