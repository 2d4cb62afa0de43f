"""Like chat_reranker, but degrades to plain retrieval order when reranking is unavailable."""

import logging

try:
    from rag_common import Chunk, cosine, embed_texts
except ImportError:  # pragma: no cover - the app ships rag_common, but be defensive
    Chunk = None
    cosine = embed_texts = None

log = logging.getLogger(__name__)


def rerank(question, chunks, keep=3):
    if embed_texts is None:
        log.warning("reranker unavailable; keeping retrieval order")
        return list(chunks)[:keep]
    (qvec,) = embed_texts([question])
    return sorted(chunks, key=lambda ch: cosine(qvec, ch.vector), reverse=True)[:keep]
