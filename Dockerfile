# One image for every role: the API, the workers and the CLI.
# PYTHON_IMAGE: any Debian-based image with python3 3.11+, its venv module and headers
# (tools/compose_check.py builds one from Debian's packages, without Docker Hub).
ARG PYTHON_IMAGE=python:3.11-slim
FROM ${PYTHON_IMAGE}
# gcc and libc6-dev: the search bot's compiled solver (setup.py); --no-install-recommends
# leaves out gcc's libc6-dev, which python:3.11-slim does not have either
RUN apt-get update && apt-get install -y --no-install-recommends gcc libc6-dev && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY pyproject.toml setup.py README.md ./
COPY server ./server
COPY workers ./workers
COPY sdk ./sdk
COPY deals ./deals
# A venv: Debian's own python3 refuses a system-wide pip install (PEP 668)
RUN python3 -m venv /opt/cinch && /opt/cinch/bin/pip install --no-cache-dir .
ENV PATH=/opt/cinch/bin:$PATH CINCH_DEALS_DIR=/app/deals
CMD ["cinch", "--help"]
