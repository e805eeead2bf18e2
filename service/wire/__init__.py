"""What crosses the wire: request and response bodies as the OpenAPI spec documents them, and their
strict decoding."""
