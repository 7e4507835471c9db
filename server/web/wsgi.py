"""The WSGI entry point for gunicorn: ``gunicorn server.web.wsgi:app`` (configured by environment)."""

from server.web.app import create_app

app = create_app()
