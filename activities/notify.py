"""The `notify` activity: a notice to a generic JSON webhook (httpx) and to Slack (an incoming
webhook through slack_sdk), once per event id, at most `rate_per_hour` per job.

The URLs are secrets: never logged, never in an error message (an endpoint's failure is
reported by its channel name and status only).
"""

from __future__ import annotations

import dataclasses
import logging
from datetime import UTC, datetime, timedelta

import httpx
from slack_sdk.webhook import WebhookClient
from sqlalchemy import Engine, func
from sqlalchemy.exc import SQLAlchemyError
from sqlmodel import Session, select
from temporalio import activity

from activities import telemetry
from activities.database.tables import NotificationRecord
from activities.database.upsert import upsert
from activities.errors import activity_error
from models.activities import ActivityName
from models.errors import ErrorType
from models.notifications import Notice, NotifyResult

log = logging.getLogger(__name__)
# httpx logs every request URL at INFO, slack_sdk at DEBUG: the URL is the secret.
for _name in ("httpx", "httpcore", "slack_sdk"):
    logging.getLogger(_name).setLevel(logging.WARNING)


class NotifyActivities:
    def __init__(
        self,
        engine: Engine,
        *,
        webhook_url: str = "",
        slack_webhook: str = "",
        timeout_s: float = 5.0,
        rate_per_hour: int = 20,
    ) -> None:
        self._engine = engine
        self._webhook_url = webhook_url
        self._slack = (
            WebhookClient(slack_webhook, timeout=int(timeout_s)) if slack_webhook else None
        )
        self._timeout = timeout_s
        self._rate = rate_per_hour

    @activity.defn(name=ActivityName.NOTIFY)
    def notify(self, notice: Notice) -> NotifyResult:
        """Sent to every configured channel, or skipped (duplicate, rate limit, none)."""
        if not self._webhook_url and self._slack is None:
            return NotifyResult(skipped="no channel configured")
        try:
            skipped = self._skip_reason(notice)
        except SQLAlchemyError as exc:  # dedup unknown: send anyway (at least once)
            log.warning("notification dedup unavailable: %s", type(exc).__name__)
            skipped = ""
        if skipped:
            return NotifyResult(skipped=skipped)
        sent: list[str] = []
        failed: list[str] = []
        if self._webhook_url:
            (sent if self._post_webhook(notice) else failed).append("webhook")
        if self._slack is not None:
            (sent if self._post_slack(notice) else failed).append("slack")
        for channel in failed:
            telemetry.NOTIFY_FAILURES.add(1, {"channel": channel, "kind": notice.kind.value})
        if failed and not sent:
            # Retried by the activity's policy (with backoff); a channel that took it is not
            # sent to again because the record below is written once one channel took it.
            raise activity_error(
                ErrorType.NOTIFY_FAILED, f"notification not accepted by {', '.join(failed)}"
            )
        self._remember(notice, sent)
        return NotifyResult(sent_to=sent)

    def _skip_reason(self, notice: Notice) -> str:
        since = datetime.now(UTC).replace(tzinfo=None) - timedelta(hours=1)
        with Session(self._engine) as session:
            seen = session.exec(
                select(NotificationRecord.id).where(NotificationRecord.event_id == notice.event_id)
            ).first()
            if seen is not None:
                return "already sent"
            recent = session.exec(
                select(func.count())
                .select_from(NotificationRecord)
                .where(
                    NotificationRecord.cluster == notice.cluster,
                    NotificationRecord.job_id == notice.job_id,
                    NotificationRecord.sent_at >= since,
                )
            ).one()
        if recent >= self._rate:
            return f"rate limit: {recent} notifications for this job in the last hour"
        return ""

    def _remember(self, notice: Notice, sent: list[str]) -> None:
        try:
            with Session(self._engine) as session:
                upsert(
                    session,
                    NotificationRecord.__table__,  # type: ignore[attr-defined]
                    {
                        "event_id": notice.event_id[:300],
                        "cluster": notice.cluster,
                        "job_id": notice.job_id,
                        "kind": notice.kind.value,
                        "channels": ",".join(sent),
                        "sent_at": datetime.now(UTC).replace(tzinfo=None),
                    },
                    keys=["event_id"],
                    update=[],
                )
                session.commit()
        except SQLAlchemyError as exc:
            log.warning("notification sent, not recorded: %s", type(exc).__name__)

    def _post_webhook(self, notice: Notice) -> bool:
        payload = {"source": "ajr", **dataclasses.asdict(notice), "kind": notice.kind.value}
        try:
            response = httpx.post(self._webhook_url, json=payload, timeout=self._timeout)
        except httpx.HTTPError as exc:
            log.warning("webhook notification failed: %s", type(exc).__name__)
            return False
        if response.is_success:
            return True
        log.warning("webhook notification refused: HTTP %s", response.status_code)
        return False

    def _post_slack(self, notice: Notice) -> bool:
        assert self._slack is not None
        try:
            response = self._slack.send(text=notice.text)
        except Exception as exc:  # the SDK raises urllib's errors: report the class only
            log.warning("Slack notification failed: %s", type(exc).__name__)
            return False
        if response.status_code == 200:
            return True
        log.warning("Slack notification refused: HTTP %s", response.status_code)
        return False
