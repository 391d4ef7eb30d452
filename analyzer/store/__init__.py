"""The store: Parquet tables of a corpus, statistics over them (DuckDB), and the cluster that spreads work."""
