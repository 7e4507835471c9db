"""The HTTP API and the pages, over one read model (``server.web.readmodel``); neither imports the other."""
