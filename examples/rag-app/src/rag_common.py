"""Shared pieces of the RAG app: configuration, chunking, embeddings and the index file."""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass, field
from pathlib import Path

INDEX_PATH = Path(__file__).resolve().parent.parent / "index.json"
EMBED_DIM = 64
DEFAULT_TOP_K = 4


@dataclass
class Chunk:
    """A piece of a document with its embedding."""

    doc: str
    text: str
    vector: list[float] = field(default_factory=list)


@dataclass
class RagConfig:
    chunk_words: int = 120
    overlap_words: int = 20
    top_k: int = DEFAULT_TOP_K


def chunk_text(text: str, config: RagConfig | None = None) -> list[str]:
    """Splits text into overlapping windows of words."""
    cfg = config or RagConfig()
    words = text.split()
    step = max(1, cfg.chunk_words - cfg.overlap_words)
    return [" ".join(words[i : i + cfg.chunk_words]) for i in range(0, max(len(words), 1), step)]


def embed_texts(texts: list[str]) -> list[list[float]]:
    """A hashing embedder: deterministic, dependency-free, good enough for a demo."""
    vectors = []
    for text in texts:
        vec = [0.0] * EMBED_DIM
        for token in re.findall(r"[a-z0-9]+", text.lower()):
            vec[hash(token) % EMBED_DIM] += 1.0
        norm = math.sqrt(sum(v * v for v in vec)) or 1.0
        vectors.append([v / norm for v in vec])
    return vectors


def cosine(a: list[float], b: list[float]) -> float:
    return sum(x * y for x, y in zip(a, b))


def save_index(chunks: list[Chunk], path: Path = INDEX_PATH) -> None:
    path.write_text(json.dumps([c.__dict__ for c in chunks]), encoding="utf-8")


def load_index(path: Path = INDEX_PATH) -> list[Chunk]:
    return [Chunk(**row) for row in json.loads(path.read_text(encoding="utf-8"))]


def retrieve(question: str, chunks: list[Chunk], top_k: int = DEFAULT_TOP_K) -> list[Chunk]:
    (qvec,) = embed_texts([question])
    ranked = sorted(chunks, key=lambda c: cosine(qvec, c.vector), reverse=True)
    return ranked[:top_k]
