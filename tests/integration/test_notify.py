"""Notifications posted to a real local HTTP server: once per event, rate-limited per job, a
dead endpoint fails fast and is retried by the activity's policy, the URL never logged."""

from __future__ import annotations

import json
import logging
import socket
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from temporalio.exceptions import ApplicationError

from activities.database.engine import make_engine
from activities.notify import NotifyActivities
from models.notifications import Notice, NoticeKind

pytestmark = pytest.mark.integration


class Receiver:
    def __init__(self) -> None:
        self.posts: list[tuple[str, dict[str, object]]] = []
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers["Content-Length"]))
                receiver.posts.append((self.path, json.loads(body)))
                self.send_response(200)
                self.end_headers()
                self.wfile.write(b"ok")

            def log_message(self, *args: object) -> None:
                return

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    r = Receiver()
    yield r
    r.server.shutdown()


def notice(n: int, job_id: int = 9) -> Notice:
    return Notice(
        event_id=f"ajr-t-{job_id}/{n}/requeued",
        kind=NoticeKind.REQUEUED,
        cluster="t",
        job_id=job_id,
        text=f"job {job_id} attempt {n}: CRASH GPU on node3 -> requeued excluding node3",
        culprit_nodes=["node3"],
        excluded_nodes=["node3"],
        attempt=n,
        max_requeues=3,
        category="GPU",
    )


def test_webhook_and_slack_once_each_and_rate_limited(
    receiver: Receiver, sqlite_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    notify = NotifyActivities(
        make_engine(sqlite_url),
        webhook_url=f"{receiver.url}/hook-secret-token",
        slack_webhook=f"{receiver.url}/services/T000/B000/slack-secret",
        rate_per_hour=2,
    )
    assert notify.notify(notice(0)).sent_to == ["webhook", "slack"]
    assert notify.notify(notice(0)).skipped == "already sent"  # a retry or a replay
    assert notify.notify(notice(1)).sent_to == ["webhook", "slack"]
    assert notify.notify(notice(2)).skipped.startswith("rate limit")
    assert notify.notify(notice(0, job_id=10)).sent_to  # another job has its own budget
    hooks = [body for path, body in receiver.posts if path == "/hook-secret-token"]
    slack = [body for path, body in receiver.posts if path.startswith("/services/")]
    assert [(h["job_id"], h["attempt"]) for h in hooks] == [(9, 0), (9, 1), (10, 0)]
    assert hooks[0]["culprit_nodes"] == ["node3"] and hooks[0]["kind"] == "requeued"
    assert slack[0] == {"text": notice(0).text}
    assert "secret" not in caplog.text


def test_a_dead_endpoint_fails_fast_and_never_leaks_the_url(
    sqlite_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    with socket.socket() as probe:  # a port nothing listens on
        probe.bind(("127.0.0.1", 0))
        dead = f"http://127.0.0.1:{probe.getsockname()[1]}/secret-path"
    notify = NotifyActivities(make_engine(sqlite_url), webhook_url=dead, timeout_s=2)
    caplog.set_level(logging.DEBUG)
    started = time.monotonic()
    with pytest.raises(ApplicationError) as raised:
        notify.notify(notice(0))
    assert time.monotonic() - started < 3
    assert raised.value.type == "NotifyFailed"
    assert "secret-path" not in caplog.text and "secret-path" not in str(raised.value)
