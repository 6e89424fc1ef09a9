"""The graph's nodes, one module each: understand, plan, retrieve, draft, build, verify, repair,
benchmark, report. Each is ``fn(state, ctx) -> (update, detail)``; graph.py wraps them with the
NodeStarted/NodeFinished events and the cancel check."""
