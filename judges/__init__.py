"""Built-in judges. Importing this package registers them."""
