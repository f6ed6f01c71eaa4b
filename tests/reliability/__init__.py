"""Reliability suites: the bad-input matrix and the concurrency stress test."""
