"""The day's event loop as compiled pieces on arrays (docs/event-loop.md): what the loop keeps
per node, per bag and per tug, so one compiled function can step the day."""
