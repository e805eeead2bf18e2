"""The service: the HTTP API, command handling, projections, workers and the CLI."""
