"""A worker's or the supervisor's own endpoint (``workers.monitor``), in-process."""

import socket

import pytest
from werkzeug.test import Client

from server.metrics import BOARDS_STORED
from workers import monitor


class Clock:
    def __init__(self):
        self.now = 1000.0

    def __call__(self):
        return self.now


def test_alive_while_it_beats_ready_while_a_beat_reaches_redis():
    clock = Clock()
    liveness = monitor.Liveness(clock)
    assert not liveness.alive() and not liveness.ready()  # no beat yet
    liveness.beat(reached_redis=False)  # waiting for Redis: alive, not ready
    assert liveness.alive() and not liveness.ready()
    liveness.beat(reached_redis=True)
    assert liveness.ready()
    clock.now += 16  # beats, but Redis lost for longer than a registration lives
    liveness.beat(reached_redis=False)
    assert liveness.alive() and not liveness.ready()
    clock.now += monitor.LIVE_SECONDS  # no beat at all: the loop is stuck
    assert not liveness.alive() and not liveness.ready()


def test_health_is_open_and_metrics_need_the_admin_token():
    liveness = monitor.Liveness()
    client = Client(monitor.app("worker", liveness, "admin-secret", None))
    assert client.get("/health").status_code == 503
    liveness.beat(reached_redis=True)
    health = client.get("/health")
    assert health.status_code == 200 and health.json == {"role": "worker", "status": "ok"}
    assert client.get("/ready").json["status"] == "ready"
    assert client.get("/metrics").status_code == 401
    assert client.get("/metrics", headers={"Authorization": "Bearer wrong"}).status_code == 401
    BOARDS_STORED.inc()
    shown = client.get("/metrics", headers={"Authorization": "Bearer admin-secret"})
    assert shown.status_code == 200 and "cinch_boards_stored_total" in shown.get_data(as_text=True)
    assert client.get("/elsewhere").status_code == 404


def test_an_open_network_endpoint_without_a_token_is_refused():
    with pytest.raises(monitor.MonitorError, match="CINCH_ADMIN_TOKEN"):
        monitor.Monitor("worker", "0.0.0.0", 0, None, None, monitor.Liveness())
    served = monitor.Monitor("worker", "127.0.0.1", 0, None, None, monitor.Liveness())  # loopback: this machine's
    served.close()


def test_systemd_is_told_when_it_asked(tmp_path, monkeypatch):
    path = tmp_path / "notify"
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
        sock.bind(str(path))
        sock.settimeout(2)
        monkeypatch.setenv("NOTIFY_SOCKET", str(path))
        monitor.Liveness().beat(reached_redis=True)
        assert sock.recv(100) == b"WATCHDOG=1"
    monkeypatch.delenv("NOTIFY_SOCKET")
    monitor.notify("READY=1")  # outside systemd: nothing, and no error


def test_cinch_refuses_open_metrics_without_a_token_and_health_says_why(capsys):
    from server.cli import main
    from server.config import Config

    config = Config(redis_url="redis://127.0.0.1:1/0")
    assert main(["worker", "--metrics-port", "9101", "--metrics-host", "0.0.0.0"], config) == 2
    assert "CINCH_ADMIN_TOKEN" in capsys.readouterr().err
    assert main(["supervisor", "--metrics-port", "9100", "--metrics-host", "10.0.0.5"], config) == 2
    assert main(["health", "worker"], config) == 2  # which port?
    served = monitor.Monitor("worker", "127.0.0.1", 0, None, None, monitor.Liveness())
    port = served.server.server_port
    try:
        assert main(["health", "worker", "--port", str(port)], config) == 1  # no beat yet: not alive
        assert "not alive (HTTP 503)" in capsys.readouterr().err
        served.liveness.beat(reached_redis=False)
        assert main(["health", "worker", "--port", str(port)], config) == 0
        assert main(["health", "worker", "--port", str(port), "--ready"], config) == 1  # Redis not reached
    finally:
        served.close()
    assert main(["health", "worker", "--port", str(port)], config) == 1
    assert "not reachable" in capsys.readouterr().err
