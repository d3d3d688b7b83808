"""The GPU device call (scripts/device/prove_gpu.py): `plans` says what a call does and by when, `supervisor` runs
its jobs as process groups under the deadline and keeps OUT written, `configs` adapts training configs to a plan,
`jobs` trains and checks the archives, and `measurements` records the device and the labeling throughput."""
