"""The agent's world: sandboxed kernels (fork server, pool, shell), the desktop display."""
