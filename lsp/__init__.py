"""kgen's AscendC language server (``kgen lsp``). Its face is :mod:`lsp.api`; the modules:

- ``server``: the pygls handlers, each a few lines over a pure helper, under one guard (``guard``);
- pure helpers: ``parse`` (tree-sitter), ``checks`` (one module per diagnostic family), ``hover``,
  ``completion``, ``definition``, ``actions`` / ``code_actions`` (quick fixes), ``overloads``;
- ``protocol``: their results as LSP types; ``editor`` / ``config``: the editor's options and the
  settings tree; ``onsave`` / ``targets`` / ``jobs`` / ``commands``: emulator builds, benches and the agent;
- child processes the server runs: ``simbuild`` (a build) and ``benchjob`` (a bench).
"""
