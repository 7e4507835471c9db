"""The WSGI entry point for gunicorn: ``gunicorn server.web.wsgi:app``, configured by the environment
(``server.config``), read once here; its logs as ``CINCH_LOG_FORMAT`` says (``server.logs``)."""

from server import logs
from server.config import Config
from server.web.app import create_app

config = Config.from_env()
logs.configure(config.log_format)
app = create_app(config)
