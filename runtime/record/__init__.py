"""``deskact record``: a person's demonstration through the browser becomes a trajectory and a task's reference."""
