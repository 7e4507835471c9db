"""The WSGI entry point for gunicorn: ``gunicorn server.web.wsgi:app``, configured by the environment
(``server.config``), read once here."""

from server.config import Config
from server.web.app import create_app

app = create_app(Config.from_env())
