"""Model enrichment: an OpenAI-compatible endpoint rewrites a page's prose from its facts;
the answer is checked against the indexed code and cached in the store."""
