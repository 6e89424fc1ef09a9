"""One module per ``kgen`` command: ``register(subparsers)`` adds it, its handler returns an exit status."""
