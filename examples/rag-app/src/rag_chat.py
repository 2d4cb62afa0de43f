"""Answers a question from the indexed documents.

Usage: python src/rag_chat.py "How do I reset my password?"
"""

import argparse
import sys

from chat_reranker import rerank
from rag_common import RagConfig, load_index, retrieve
from rag_common_extra import format_prompt, format_sources


def answer(question: str, config: RagConfig | None = None) -> str:
    cfg = config or RagConfig()
    chunks = rerank(question, retrieve(question, load_index(), cfg.top_k * 2), keep=cfg.top_k)
    prompt = format_prompt(question, [c.text for c in chunks])
    # A real deployment sends `prompt` to a model; the demo returns the best passage.
    best = chunks[0].text if chunks else "I don't know."
    return f"{best}\n\n{format_sources([c.doc for c in chunks])}\n(prompt: {len(prompt)} chars)"


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("question")
    args = parser.parse_args(argv)
    print(answer(args.question))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
