"""kgen's agent: LangGraph state and nodes, prompts, model clients, the offline drafter."""
