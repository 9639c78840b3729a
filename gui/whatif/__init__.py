"""What-if edits of the running day: map clicks, the undo stack, the compare panel."""
