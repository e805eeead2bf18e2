"""HTTP: the controllers of API v1, problem details, the outermost layer of each request, and the
files the service serves."""
