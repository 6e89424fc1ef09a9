"""A cache of passage embeddings keyed by (embedder, text hash), so that rebuilding an index, or
building it for the first time, does not recompute vectors it already knows.

The user's cache lives in the data dir (``<data dir>/embcache/<embedder>.npz``, kept when an index is rebuilt); a seed for
the shipped knowledge base (``retrieval/data/<embedder>_kb.npz``) starts it, which makes the first
MiniLM build of the shipped corpus take seconds instead of minutes. Regenerate the seed after
editing the KB with ``python -m retrieval.embcache minilm``; stale entries are simply not used."""
from __future__ import annotations

import hashlib
import sys
from pathlib import Path

import numpy as np

from retrieval import settings

SEED_DIR = Path(__file__).resolve().parent / "data"


def text_key(text: str) -> str:
    return hashlib.sha1(text.encode("utf-8")).hexdigest()[:20]


class EmbeddingCache:
    def __init__(self, path: Path, embedder: str, dim: int) -> None:
        self.path, self.embedder, self.dim = path, embedder, dim
        self._map: dict[str, np.ndarray] = {}
        self._dirty = False
        seed = SEED_DIR / f"{embedder}_kb.npz"
        use_seed = settings.current().embed_seed   # off (KGEN_EMBED_SEED=0): measure a cold build
        for f in ([seed] if use_seed else []) + [path]:
            self._read(f)

    def _read(self, f: Path) -> None:
        try:
            with np.load(f, allow_pickle=False) as z:
                keys, vecs = z["keys"], z["vecs"]
            if vecs.ndim == 2 and vecs.shape[1] == self.dim and len(keys) == len(vecs):
                self._map.update(zip(keys.tolist(), vecs.astype(np.float32)))
        except (OSError, KeyError, ValueError):
            pass

    def embed(self, texts: list[str], compute) -> np.ndarray:
        """Vectors for ``texts``: cached ones looked up, the others computed with ``compute(list)``."""
        keys = [text_key(t) for t in texts]
        missing = [i for i, k in enumerate(keys) if k not in self._map]
        if missing:
            new = compute([texts[i] for i in missing])
            for i, v in zip(missing, new):
                self._map[keys[i]] = np.asarray(v, dtype=np.float32)
            self._dirty = True
        return np.stack([self._map[k] for k in keys]) if keys else np.zeros((0, self.dim), np.float32)

    def save(self, path: Path | None = None, keys: list[str] | None = None) -> None:
        path = path or self.path
        if path == self.path and not self._dirty:
            return
        ks = keys if keys is not None else list(self._map)
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(path.stem + ".tmp.npz")
        np.savez_compressed(tmp, keys=np.array(ks), vecs=np.stack([self._map[k] for k in ks]).astype(np.float16))
        tmp.replace(path)
        if path == self.path:
            self._dirty = False


def build_seed(embedder: str) -> Path:
    """Embed every passage of the shipped KB and write the seed file."""
    from retrieval.chunking import chunk_page, index_text   # lazy: only `python -m retrieval.embcache` needs the KB
    from retrieval.corpus import load_kb   # lazy: as above
    from retrieval.embedders import get_embedder   # lazy: as above (torch, sentence-transformers)

    emb = get_embedder(embedder)
    texts = [index_text(ps, p.keywords) for p in load_kb() for ps in chunk_page(p)]
    cache = EmbeddingCache(Path("/nonexistent"), embedder, emb.dim)
    cache.embed(texts, emb.embed)
    out = SEED_DIR / f"{embedder}_kb.npz"
    cache.save(out, keys=[text_key(t) for t in dict.fromkeys(texts)])
    return out


if __name__ == "__main__":
    for name in sys.argv[1:] or ["minilm"]:
        print(build_seed(name))
