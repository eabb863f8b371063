"""Built-in reset and cleanup steps. Importing this package registers them."""
