"""kgen's AscendC knowledge base, doc ingestion, Chroma index and symbol table."""
