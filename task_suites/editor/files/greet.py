def greet(name):
	if name:
		return "Hello, " + name
	return "Hello"
