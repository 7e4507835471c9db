"""The WSGI entry point for gunicorn: ``gunicorn server.wsgi:app`` (configured by environment)."""

from server.api import create_app

app = create_app()
