"""Benches that answered one design question once, kept so that their figures in
docs/performance.md can be checked or the question asked again: `python -m
bench.experiments.<name>`. The standing benchmarks (`make bench`, `make ab`, `make anatomy`,
`make capacity`, `make soak`, `make profile`, and the modules they run) are in bench/."""
