"""kgen front ends: the ``kgen`` command line, configuration, the terminal app, sessions."""
