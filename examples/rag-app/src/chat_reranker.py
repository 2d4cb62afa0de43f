"""Reranks retrieved chunks by word overlap with the question."""

import re
from collections import Counter

from rag_common import Chunk, cosine, embed_texts


def overlap_score(question: str, chunk: Chunk) -> float:
    q = Counter(re.findall(r"[a-z0-9]+", question.lower()))
    c = Counter(re.findall(r"[a-z0-9]+", chunk.text.lower()))
    return sum(min(q[w], c[w]) for w in q) / (sum(q.values()) or 1)


def rerank(question: str, chunks: list[Chunk], keep: int = 3) -> list[Chunk]:
    (qvec,) = embed_texts([question])
    scored = [(0.7 * cosine(qvec, ch.vector) + 0.3 * overlap_score(question, ch), ch) for ch in chunks]
    scored.sort(key=lambda pair: pair[0], reverse=True)
    return [ch for _, ch in scored[:keep]]
