# One image for every role: the API, the workers and the CLI.
FROM python:3.11-slim
RUN apt-get update && apt-get install -y --no-install-recommends gcc make && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY pyproject.toml setup.py README.md ./
COPY server ./server
COPY workers ./workers
COPY sdk ./sdk
COPY deals ./deals
RUN pip install --no-cache-dir .
ENV CINCH_DEALS_DIR=/app/deals
CMD ["cinch", "--help"]
