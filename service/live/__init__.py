"""Live streams (SSE): one reader of the shard feeds per process, fanned out to each open stream,
and the stream writer's process."""
