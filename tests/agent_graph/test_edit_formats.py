"""parse_reply over realistic model replies in each layout (with reasoning and prose around them), and
the complaints for replies that cannot be used. The expected files are the real scaled_add project
under tests/data, so a parse is checked against text that was never produced by the parser."""
from __future__ import annotations

from pathlib import Path

import pytest

from agent_graph.edit_formats import ParsedReply, ParseFailure, expected_files, parse_reply

PROJECT = Path(__file__).resolve().parents[1] / "data" / "tasks" / "npukb_scaled_add" / "answer" / "0"
TILING = (PROJECT / "op_host" / "scaled_add_tiling.h").read_text()
HOST = (PROJECT / "op_host" / "scaled_add.cpp").read_text()
KERNEL = (PROJECT / "op_kernel" / "scaled_add.cpp").read_text()
WANT = {"op_host/scaled_add_tiling.h": TILING, "op_host/scaled_add.cpp": HOST, "op_kernel/scaled_add.cpp": KERNEL}
EQ = "=================="


def fence(code: str, info: str = "cpp") -> str:
    return f"```{info}\n{code.rstrip()}\n```"


def ok(reply: str, op: str = "scaled_add", mode: str = "project") -> ParsedReply:
    r = parse_reply(reply, op, mode)
    assert isinstance(r, ParsedReply), r
    return r


def fail(reply: str, op: str = "scaled_add", mode: str = "project") -> str:
    r = parse_reply(reply, op, mode)
    assert isinstance(r, ParseFailure), r
    assert "\n" not in r.complaint
    return r.complaint


def same(files: dict[str, str], want: dict[str, str] = WANT) -> None:
    assert set(files) == set(want)
    for p in want:
        assert files[p].strip() == want[p].strip(), p


NPUKB = f"""<think>
The op is y = x1 + alpha * x2. A first idea for the kernel:
```cpp
// draft, not the answer
__aicore__ void scaled_add() {{}}
```
I will tile by 2048 elements per core.
</think>
Here is the implementation.

{EQ} op_host/scaled_add_tiling.h {EQ}
{fence(TILING)}
{EQ} op_host/scaled_add.cpp {EQ}
{fence(HOST)}
{EQ} op_kernel/scaled_add.cpp {EQ}
{fence(KERNEL)}

The kernel uses DataCopyPad for the tail.
"""


def test_npukb_with_reasoning_and_prose():
    r = ok(NPUKB)
    assert r.format == "npukb"
    same(r.files)
    assert "draft, not the answer" not in "".join(r.files.values())


def test_npukb_header_variants():
    reply = (f"## ===== op_host/scaled_add_tiling.h =====\n\n{fence(TILING)}\n"
             f"**{EQ}== `op_host/scaled_add.cpp` {EQ}**\n{fence(HOST, 'c++')}\n"
             f"{EQ} ./scaled_add/op_kernel/scaled_add.cpp {EQ}\n~~~cpp\n{KERNEL}~~~\n")
    r = ok(reply)
    assert r.format == "npukb"
    same(r.files)


def test_reasoning_without_opening_tag():
    # vLLM's reasoning parsers strip <think>, leaving the text before </think>
    reply = "I think the kernel should be\n" + fence("void broken(") + "\n</think>\n" + NPUKB.split("</think>", 1)[1]
    same(ok(reply).files)


def test_fenced_path_in_three_places():
    reply = (f"Tiling header first.\n{fence(TILING, 'cpp op_host/scaled_add_tiling.h')}\n\n"
             f"Host code:\n{fence('// file: op_host/scaled_add.cpp' + chr(10) + HOST)}\n\n"
             f"### 3. Kernel (`op_kernel/scaled_add.cpp`)\n\n{fence(KERNEL)}\n")
    r = ok(reply)
    assert r.format == "fenced_path"
    assert r.files["op_host/scaled_add.cpp"].startswith("// file: op_host/scaled_add.cpp")
    assert r.files["op_host/scaled_add_tiling.h"].strip() == TILING.strip()
    assert r.files["op_kernel/scaled_add.cpp"].strip() == KERNEL.strip()


def test_path_normalisation():
    reply = (f"{fence(TILING, 'cpp:./scaled_add/op_host/scaled_add_tiling.h')}\n"
             f"**ScaledAdd\\op_host\\scaled_add.cpp**\n{fence(HOST)}\n"
             f"File: answer/0/op_kernel/scaled_add.cpp\n{fence(KERNEL)}\n")
    same(ok(reply).files)


def test_bare_names_placed_by_content():
    # the same name twice: host code goes to op_host/, the __aicore__ kernel to op_kernel/
    reply = (f"`scaled_add_tiling.h`:\n{fence(TILING)}\n`scaled_add.cpp` (host):\n{fence(HOST)}\n"
             f"`scaled_add.cpp` (kernel):\n{fence(KERNEL)}\n")
    same(ok(reply).files)


def test_unlabelled_blocks_placed_by_content():
    reply = f"Tiling:\n{fence(TILING)}\nHost:\n{fence(HOST)}\nKernel:\n{fence(KERNEL)}\n"
    r = ok(reply)
    assert r.format == "by_content"
    same(r.files)


def test_last_version_of_a_file_wins():
    old_kernel = KERNEL.replace("BUFFER_NUM = 2", "BUFFER_NUM = 1")
    reply = (f"First attempt:\n{EQ} op_kernel/scaled_add.cpp {EQ}\n{fence(old_kernel)}\nActually, double buffering:\n"
             + NPUKB.split("</think>", 1)[1])
    assert "BUFFER_NUM = 2" in ok(reply).files["op_kernel/scaled_add.cpp"]


def test_camel_case_op_name_and_near_miss_file_name():
    reply = NPUKB.replace("op_kernel/scaled_add.cpp", "op_kernel/scaled_add_kernel.cpp")
    same(ok(reply, op="ScaledAdd").files)


def test_kernel_only_mode():
    reply = f"<think>tiles of 2048</think>\nThe kernel:\n<kernel_impl>\n{fence(KERNEL)}\n</kernel_impl>\n"
    r = ok(reply, mode="kernel")
    assert r.format == "kernel_impl"
    same(r.files, {"op_kernel/scaled_add.cpp": KERNEL})


def test_kernel_only_mode_accepts_other_layouts():
    r = ok(f"{EQ} op_kernel/scaled_add.cpp {EQ}\n{fence(KERNEL)}\n", mode="kernel")
    same(r.files, {"op_kernel/scaled_add.cpp": KERNEL})
    same(ok(NPUKB, mode="kernel").files, {"op_kernel/scaled_add.cpp": KERNEL})   # the given host is not replaced


# -- failures ----------------------------------------------------------------------------------------
def test_missing_kernel_names_it_and_the_expected_layout():
    reply = NPUKB.split(f"{EQ} op_kernel/", 1)[0]
    c = fail(reply)
    assert c.startswith("no op_kernel/scaled_add.cpp block found")
    assert "found only: op_host/scaled_add.cpp, op_host/scaled_add_tiling.h" in c
    for p in expected_files("scaled_add"):
        assert p in c
    assert f"{EQ} op_host/scaled_add_tiling.h {EQ}" in c


def test_prose_only():
    c = fail("I cannot write this kernel without more information about the shapes.")
    assert "no op_host/scaled_add_tiling.h, op_host/scaled_add.cpp or op_kernel/scaled_add.cpp block found" in c


def test_empty_and_reasoning_only():
    assert "empty" in fail("   ")
    c = fail("<think>Let me consider the tiling. 48 cores, so")
    assert "only reasoning" in c


@pytest.mark.parametrize("path", ["../op_kernel/scaled_add.cpp", "/tmp/x/op_kernel/scaled_add.cpp",
                                  "op_host/../../etc/scaled_add.cpp", "C:\\work\\op_kernel\\scaled_add.cpp"])
def test_paths_escaping_the_project_are_rejected(path):
    reply = NPUKB.replace("op_kernel/scaled_add.cpp", path)
    c = fail(reply)
    assert "absolute path" in c or "'..'" in c


def test_truncated_reply_is_not_closed():
    reply = NPUKB.rsplit("```", 1)[0].rsplit("}", 3)[0]      # cut inside the kernel's fenced block
    c = fail(reply)
    assert c.startswith("the op_kernel/scaled_add.cpp block is not closed")


def test_truncated_kernel_impl():
    c = fail(f"<kernel_impl>\n```cpp\n{KERNEL[:200]}", mode="kernel")
    assert "not closed" in c and "<kernel_impl>" in c


def test_empty_block():
    reply = NPUKB.replace(fence(HOST), "```cpp\n```")
    assert fail(reply).startswith("the op_host/scaled_add.cpp block is empty")


def test_unknown_mode():
    with pytest.raises(ValueError):
        parse_reply("x", "scaled_add", mode="diff")


def test_files_only_inside_the_reasoning_are_used():
    body = NPUKB.split("</think>", 1)[1]
    same(ok(f"<think>\n{body}\n</think>\nThat is my answer.").files)


def test_a_draft_in_the_reasoning_never_fills_a_missing_file():
    reply = NPUKB.split(f"{EQ} op_kernel/", 1)[0]     # the reasoning has a kernel draft; the answer has none
    assert "op_kernel/scaled_add.cpp" in fail(reply)


def test_npukb_inside_an_outer_markdown_fence_and_annotated_headers():
    body = NPUKB.split("</think>", 1)[1].replace("op_host/scaled_add.cpp {EQ}".replace("{EQ}", EQ),
                                                 f"op_host/scaled_add.cpp (host side) {EQ}")
    same(ok(f"```markdown\n{body}\n```\n").files)


def test_header_followed_by_bare_code():
    reply = (f"{EQ} op_host/scaled_add_tiling.h {EQ}\n{TILING}\n{EQ} op_host/scaled_add.cpp {EQ}\n{HOST}\n"
             f"{EQ} op_kernel/scaled_add.cpp {EQ}\n{KERNEL}")
    same(ok(reply).files)


def test_files_under_another_op_name_are_renamed_with_their_includes():
    # the model kept the names of its example (scaled_add) while the task's op is npukb_scaled_add_custom
    r = ok(NPUKB, op="npukb_scaled_add_custom")
    assert sorted(r.files) == ["op_host/npukb_scaled_add_custom.cpp", "op_host/npukb_scaled_add_custom_tiling.h",
                               "op_kernel/npukb_scaled_add_custom.cpp"]
    assert '#include "npukb_scaled_add_custom_tiling.h"' in r.files["op_host/npukb_scaled_add_custom.cpp"]
    assert '"scaled_add_tiling.h"' not in "".join(r.files.values())


def test_only_sources_and_headers_are_taken():
    extra = (f"\n{EQ} op_kernel/CMakeLists.txt {EQ}\n```cmake\nadd_ops_compile_options(ALL)\n```\n"
             f"{EQ} op_kernel/helpers.h {EQ}\n{fence('__aicore__ inline int Twice(int x) { return 2 * x; }')}\n")
    r = ok(NPUKB + extra)
    assert "op_kernel/CMakeLists.txt" not in r.files
    assert r.files["op_kernel/helpers.h"].startswith("__aicore__ inline int Twice")


def test_prose_naming_another_file_before_a_block():
    reply = (f"**op_host/scaled_add_tiling.h**\n{fence(TILING)}\n**op_host/scaled_add.cpp**\n{fence(HOST)}\n"
             f"The kernel reads its parameters from `scaled_add_tiling.h`:\n{fence(KERNEL)}\n")
    same(ok(reply).files)


def test_never_raises_on_damaged_replies():
    """Cut, duplicated and spliced replies (as sampling at high temperature produces) always give a result
    or a complaint, and never a path outside op_host/ or op_kernel/."""
    import random

    rng = random.Random(1234)
    pieces = ["```", "```cpp", "~~~", "</think>", "<think>", "<kernel_impl>", "</kernel_impl>", f"{EQ} op_host/ {EQ}",
              f"{EQ} ../x.cpp {EQ}", "// file: /etc/x.h", "\n", "**scaled_add.cpp**"]
    for _ in range(300):
        text = NPUKB
        for _ in range(rng.randint(1, 4)):
            k = rng.randrange(len(text) + 1)
            op = rng.random()
            if op < 0.4:
                text = text[:k]
            elif op < 0.8:
                text = text[:k] + rng.choice(pieces) + text[k:]
            else:
                j = rng.randrange(len(text) + 1)
                text = text[:k] + text[min(j, k):max(j, k)] + text[k:]
        for mode in ("project", "kernel"):
            r = parse_reply(text, "scaled_add", mode)
            if isinstance(r, ParsedReply):
                for p in r.files:
                    assert p.split("/")[0] in ("op_host", "op_kernel") and ".." not in p.split("/")
            else:
                assert r.complaint and "\n" not in r.complaint
