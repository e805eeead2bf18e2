"""The read models: the projection runner and each model fed by the shard feeds, with its
rebuild."""
