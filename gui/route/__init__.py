"""The route finder: From/To, cost model and variant, solved off the UI thread."""
