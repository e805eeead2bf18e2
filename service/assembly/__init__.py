"""The composition root: the parts built once and wired together for the API process, `danger
worker` and the stream process."""
