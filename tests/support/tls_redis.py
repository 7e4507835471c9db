"""A real redis-server of the test's own, reached only over TLS and with a password, as a
league's machines reach a shared one (docs/operations.md#across-machines).

The certificates are made for the run by ``openssl`` (a CA and a server certificate for
127.0.0.1 signed by it). redis-server cannot be told to pick its own TLS port, so the
port is one the OS had free a moment before; what answers is then checked to be this
server (its working directory is the test's), so a stranger on that port fails the test
instead of serving it.
"""

from __future__ import annotations

import secrets
import shutil
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

import pytest
from redis import Redis

from support.apiserver import free_port
from support.waiting import STALL

REDIS_SERVER = shutil.which("redis-server")
OPENSSL = shutil.which("openssl")


@dataclass
class TlsRedis:
    url: str
    """``rediss://:PASSWORD@127.0.0.1:PORT/0?ssl_ca_certs=CA``: what a worker is given."""
    bare: str
    """The same URL without the CA: a client that cannot verify the server's certificate."""
    password: str
    proc: subprocess.Popen


def _certificates(folder: Path) -> tuple[Path, Path, Path]:
    """(CA certificate, server certificate, server key), the server's for IP 127.0.0.1."""
    ca_key, ca, key, csr, cert = (folder / n for n in ("ca.key", "ca.crt", "server.key", "server.csr", "server.crt"))
    ext = folder / "san.cnf"
    ext.write_text("subjectAltName = IP:127.0.0.1\n")

    def run(*args: str) -> None:
        subprocess.run([str(OPENSSL), *args], check=True, capture_output=True)

    run("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=cinch test CA",
        "-keyout", str(ca_key), "-out", str(ca))  # fmt: skip
    run("req", "-newkey", "rsa:2048", "-nodes", "-subj", "/CN=127.0.0.1", "-keyout", str(key), "-out", str(csr))
    run("x509", "-req", "-in", str(csr), "-CA", str(ca), "-CAkey", str(ca_key), "-CAcreateserial",
        "-days", "1", "-extfile", str(ext), "-out", str(cert))  # fmt: skip
    return ca, cert, key


def start_tls_redis(folder: Path) -> TlsRedis:
    """Start the server; stop it with ``proc.terminate()``. Skips without the binaries."""
    if REDIS_SERVER is None or OPENSSL is None:
        pytest.skip("redis-server and openssl are needed for the TLS test")
    folder.mkdir(parents=True, exist_ok=True)
    ca, cert, key = _certificates(folder)
    password = secrets.token_urlsafe(18)
    port = free_port()
    proc = subprocess.Popen(
        [
            REDIS_SERVER,
            "--port",
            "0",
            "--tls-port",
            str(port),
            "--bind",
            "127.0.0.1",
            "--tls-cert-file",
            str(cert),
            "--tls-key-file",
            str(key),
            "--tls-ca-cert-file",
            str(ca),
            "--tls-auth-clients",
            "no",
            "--requirepass",
            password,
            "--dir",
            str(folder),
            "--save",
            "",
            "--appendonly",
            "no",
        ],  # fmt: skip
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    bare = f"rediss://:{password}@127.0.0.1:{port}/0"
    url = f"{bare}?ssl_ca_certs={ca}"
    deadline = time.monotonic() + STALL
    while True:
        try:
            with Redis.from_url(url) as r:
                served = r.config_get("dir")["dir"]
            break
        except Exception:
            if proc.poll() is not None or time.monotonic() > deadline:
                proc.kill()
                pytest.fail(f"the TLS redis-server on port {port} did not start")
            time.sleep(0.1)
    if Path(served).resolve() != folder.resolve():
        proc.kill()
        pytest.fail(f"port {port} is answered by another Redis (dir {served})")
    return TlsRedis(url, bare, password, proc)
