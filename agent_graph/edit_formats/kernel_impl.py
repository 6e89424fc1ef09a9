"""Kernel-only replies (NPUKernelBench's kernel-only mode): the kernel between ``<kernel_impl>`` tags,
usually as one fenced cpp block::

    <kernel_impl>
    ```cpp
    ...
    ```
    </kernel_impl>

The last tagged section wins (models sometimes show a draft first). A missing closing tag (a reply cut
off by the token limit) is reported as not closed.
"""
from __future__ import annotations

import re

from agent_graph.edit_formats.common import Block, scan_fences

NAME = "kernel_impl"
_SECTION = re.compile(r"<kernel_impl>(?P<body>.*?)(?P<close></kernel_impl>|\Z)", re.DOTALL | re.IGNORECASE)


def find_blocks(text: str, kernel_path: str) -> list[Block]:
    blocks: list[Block] = []
    for m in _SECTION.finditer(text):
        body = m.group("body")
        closed = bool(m.group("close"))
        fences = scan_fences(body.split("\n"))
        if fences:
            f = max(fences, key=lambda f: len(f.body))
            blocks.append(Block(path=kernel_path, content=f.body, closed=closed and f.end is not None,
                                where="<kernel_impl>"))
        else:
            blocks.append(Block(path=kernel_path, content=body.strip("\n"), closed=closed, where="<kernel_impl>"))
    return blocks
