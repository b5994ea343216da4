"""`make bench`: the shop measured under load against a bare Django view (see bench.py)."""
