"""The dashboard: a local Flask site, the pipeline runner and the playthrough log."""
