"""What the workers do: timers and bot seats queued by the command path and run by the arq
worker."""
