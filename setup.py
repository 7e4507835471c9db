"""The one thing pyproject.toml cannot say stably: the search bot's compiled solver.

``workers/bots/_solver.c`` is the exact double-dummy search that lets the ``search`` bot
solve first-trick layouts inside its per-decision time bar (Python took seconds). Every
machine we target has gcc and the Python headers (the Dockerfile installs gcc too).
"""

from setuptools import Extension, setup

setup(ext_modules=[Extension("workers.bots._solver", ["workers/bots/_solver.c"], extra_compile_args=["-O2"])])
