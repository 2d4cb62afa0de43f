"""Optional extras kept apart from rag_common: prompt templates and answer formatting."""

PROMPT_TEMPLATE = """Answer the question using only the context.

Context:
{context}

Question: {question}
Answer:"""


def format_prompt(question: str, passages: list[str]) -> str:
    return PROMPT_TEMPLATE.format(context="\n---\n".join(passages), question=question)


def format_sources(docs: list[str]) -> str:
    return "Sources: " + ", ".join(sorted(set(docs)))
