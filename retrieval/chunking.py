"""Splitting pages into passages: one per ``##`` section, long sections cut at paragraphs."""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from retrieval.corpus import Page

MAX_CHARS = 1600
_HEADING = re.compile(r"^(#{1,3})\s+(.*)$")


@dataclass
class Passage:
    """A searchable piece of a page. ``score`` is filled in by a search."""

    id: str
    page: str          # page id, e.g. "api/DataCopyPad"
    title: str         # page title
    section: str       # heading of the section ("" for the page intro)
    text: str
    source: str
    apis: list[str] = field(default_factory=list)
    score: float = 0.0
    summary_zh: str = ""   # the page's one-line Chinese summary, when it has one

    def to_dict(self) -> dict:
        return {"id": self.id, "page": self.page, "title": self.title, "section": self.section,
                "text": self.text, "source": self.source, "apis": list(self.apis), "score": round(self.score, 6),
                "summary_zh": self.summary_zh}


def _sections(body: str) -> list[tuple[str, str]]:
    out: list[tuple[str, list[str]]] = [("", [])]
    in_code = False
    for line in body.splitlines():
        if line.lstrip().startswith("```"):
            in_code = not in_code
        m = None if in_code else _HEADING.match(line)
        if m and len(m.group(1)) == 2:
            out.append((m.group(2).strip(), []))
        elif m and len(m.group(1)) == 1 and not out[-1][1] and out[-1][0] == "":
            continue  # the page's own title line
        else:
            out[-1][1].append(line)
    return [(h, "\n".join(ls).strip()) for h, ls in out if "\n".join(ls).strip()]


def _cut(text: str, limit: int = MAX_CHARS) -> list[str]:
    if len(text) <= limit:
        return [text]
    parts, cur = [], ""
    for para in re.split(r"\n\s*\n", text):
        if cur and len(cur) + len(para) + 2 > limit:
            parts.append(cur)
            cur = para
        else:
            cur = f"{cur}\n\n{para}" if cur else para
    if cur:
        parts.append(cur)
    return parts


def chunk_page(page: Page) -> list[Passage]:
    """Passages of a page; each carries the page title and API names so it stands alone."""
    passages = []
    for section, text in _sections(page.body) or [("", page.title)]:
        for piece in _cut(text):
            passages.append(Passage(id=f"{page.id}#{len(passages)}", page=page.id, title=page.title,
                                    section=section, text=piece, source=page.source, apis=page.apis,
                                    summary_zh=page.summary_zh))
    return passages


def index_text(p: Passage, keywords: list[str] | None = None) -> str:
    """What the lexical and vector indexes see for a passage (title and names weigh in)."""
    head = p.title if not p.section else f"{p.title} — {p.section}"
    extra = " ".join(p.apis + (keywords or []))
    return f"{head}\n{extra}\n{p.text}" if extra else f"{head}\n{p.text}"
