"""kgen's AscendC language server (``kgen lsp``)."""
