"""Builds index.json from the Markdown files in data/docs."""
from pathlib import Path

from rag_common import Chunk, RagConfig, chunk_text, embed_texts, save_index

DOCS_DIR = Path(__file__).resolve().parent.parent / "data" / "docs"


def build(config: RagConfig | None = None) -> int:
    chunks: list[Chunk] = []
    for doc in sorted(DOCS_DIR.glob("*.md")):
        pieces = chunk_text(doc.read_text(encoding="utf-8"), config)
        for text, vector in zip(pieces, embed_texts(pieces)):
            chunks.append(Chunk(doc=doc.name, text=text, vector=vector))
    save_index(chunks)
    return len(chunks)


if __name__ == "__main__":
    print(f"indexed {build()} chunks")
