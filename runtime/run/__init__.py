"""Tasks and runs: task format, reset/judge steps, workers, the runner, results and trajectories."""
