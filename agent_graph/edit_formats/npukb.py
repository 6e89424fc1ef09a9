"""NPUKernelBench's reply format (the one KernelGen-LM was trained on).

Each file is a header line naming its project path between runs of ``=``, followed by a fenced block::

    ================== op_host/add_custom_tiling.h ==================
    ```cpp
    ...
    ```

Tolerated: any number (>= 3) of ``=``, markdown decoration around the header (``#``, ``**``), blank
lines between the header and the fence, and a header followed by bare code (no fence) up to the next
header or the end of the reply.
"""
from __future__ import annotations

import re

from agent_graph.edit_formats.common import Block, find_path, scan_fences

NAME = "npukb"
_HEADER = re.compile(r"^[\s#>*]*={3,}\s*[`*]*(?P<path>[^=`*\s][^=`*]*?)[`*]*\s*={3,}[\s*]*$")


def header_line(path: str) -> str:
    """The header line for ``path`` exactly as NPUKernelBench's template writes it."""
    return f"================== {path} =================="


def find_blocks(text: str) -> list[Block]:
    lines = text.split("\n")
    headers = [(i, m.group("path").strip()) for i, line in enumerate(lines) if (m := _HEADER.match(line))]
    blocks: list[Block] = []
    for n, (i, raw) in enumerate(headers):
        path = find_path(raw) or raw
        nxt = headers[n + 1][0] if n + 1 < len(headers) else len(lines)
        j = i + 1
        while j < nxt and not lines[j].strip():
            j += 1
        # fences are scanned from the header on, so a reply wrapped in an outer ```markdown fence still works
        local = scan_fences(lines[j:nxt])
        if local and local[0].start == 0:
            f = local[0]
            blocks.append(Block(path=path, content=f.body, closed=f.end is not None, where="header"))
        else:
            body = "\n".join(ln for ln in lines[j:nxt] if not ln.strip().startswith(("```", "~~~"))).strip("\n")
            blocks.append(Block(path=path, content=body, closed=True, where="header"))
    return blocks
