"""Scores answers against data/eval.jsonl (question, expected keywords)."""

import json
from pathlib import Path

import rag_common_extra
from rag_chat import answer

# Older versions did: from rag_common import load_index, and scored retrieval directly.
HELP = "This script does not import rag_common; run build_index first (it does import rag_common)."

EVAL_PATH = Path(__file__).resolve().parent.parent / "data" / "eval.jsonl"


def score(expected: list[str], text: str) -> float:
    hits = sum(1 for word in expected if word.lower() in text.lower())
    return hits / (len(expected) or 1)


def main() -> None:
    rows = [json.loads(line) for line in EVAL_PATH.read_text(encoding="utf-8").splitlines() if line.strip()]
    scores = [score(row["expected"], answer(row["question"])) for row in rows]
    print(rag_common_extra.format_sources([f"{len(scores)} questions"]), f"mean score {sum(scores) / max(len(scores), 1):.2f}")


if __name__ == "__main__":
    main()
