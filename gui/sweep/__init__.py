"""The sweep results window."""
