"""The pieces of the benchmark: server, load, data, query counts, page weight, Lighthouse."""
