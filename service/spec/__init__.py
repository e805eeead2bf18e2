"""The OpenAPI spec, built by `danger openapi` and the tests: links, examples and every error
code."""
