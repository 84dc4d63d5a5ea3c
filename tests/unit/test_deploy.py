"""deploy/ is checked by the tools a site would use: promtool (alert rules and their unit
tests), `systemd-analyze verify` and `security` (the worker unit), the Kubernetes schemas
(kubernetes-validate, offline), and ajr's own rules for its manifests (non-root, probes,
resources, two replicas with a disruption budget)."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import kubernetes_validate
import pytest
import yaml

REPO = Path(__file__).resolve().parents[2]
DEPLOY = REPO / "deploy"
K8S_VERSION = "1.30.0"  # native sidecars (restartPolicy on an init container) need 1.29+


def tool(name: str) -> str:
    path = shutil.which(name) or next(
        (str(p) for d in ("/usr/bin", "/usr/sbin") if (p := Path(d) / name).exists()), None
    )
    if path is None:
        pytest.fail(f"{name} is not installed: run deploy/local/install-system-deps.sh")
    return path


def test_alert_rules_pass_promtool_check_and_their_unit_tests() -> None:
    rules = DEPLOY / "prometheus"
    check = subprocess.run(
        [tool("promtool"), "check", "rules", "ajr-alerts.yml"],
        cwd=rules,
        capture_output=True,
        text=True,
    )
    assert check.returncode == 0, check.stdout + check.stderr
    assert "SUCCESS: 6 rules found" in check.stdout
    tested = subprocess.run(
        [tool("promtool"), "test", "rules", "ajr-alerts.test.yml"],
        cwd=rules,
        capture_output=True,
        text=True,
    )
    assert tested.returncode == 0, tested.stdout + tested.stderr


def _unit_for_verify(
    tmp_path: Path,
    replace: dict[str, str] | None = None,
    *,
    source: str = "ajr-worker.service",
    name: str = "ajr-worker.service",
) -> Path:
    """A shipped unit, with ExecStart pointing at this checkout's `ajr` (verify checks that
    the program exists; /opt/ajr is where install.sh puts it on a head node)."""
    text = (DEPLOY / "systemd" / source).read_text()
    text = text.replace("/opt/ajr/venv/bin/ajr", str(Path(sys.executable).parent / "ajr"))
    for old, new in (replace or {}).items():
        text = text.replace(old, new)
    unit = tmp_path / name
    unit.write_text(text)
    return unit


def _verify(unit: Path) -> subprocess.CompletedProcess[str]:
    analyze = shutil.which("systemd-analyze")
    if analyze is None:
        pytest.skip("systemd-analyze is not installed (apt-get install systemd)")
    return subprocess.run(
        [analyze, "verify", "--man=no", str(unit)], capture_output=True, text=True
    )


def test_systemd_unit_verifies_without_a_warning(tmp_path: Path) -> None:
    result = _verify(_unit_for_verify(tmp_path))
    assert result.returncode == 0 and not result.stdout and not result.stderr, result


def test_systemd_template_unit_per_cluster_verifies(tmp_path: Path) -> None:
    unit = _unit_for_verify(tmp_path, source="ajr-worker@.service", name="ajr-worker@c1.service")
    result = _verify(unit)
    assert result.returncode == 0 and not result.stdout and not result.stderr, result
    assert "EnvironmentFile=/etc/ajr/%i.env" in unit.read_text().splitlines()


def test_systemd_verify_would_catch_a_broken_unit(tmp_path: Path) -> None:
    # systemd ignores a bad value with a warning and exit 0: the test above needs no output.
    broken = _unit_for_verify(tmp_path, {"Restart=on-failure": "Restart=on-falure"})
    result = _verify(broken)
    assert "Failed to parse service restart specifier" in result.stderr, result


def test_systemd_unit_is_hardened(tmp_path: Path) -> None:
    analyze = shutil.which("systemd-analyze")
    if analyze is None:
        pytest.skip("systemd-analyze is not installed (apt-get install systemd)")
    unit = _unit_for_verify(tmp_path)
    result = subprocess.run(
        [analyze, "security", "--offline=yes", "--no-pager", str(unit)],
        capture_output=True,
        text=True,
    )
    match = re.search(r"Overall exposure level for \S+: (\d+\.\d+)", result.stdout + result.stderr)
    assert match, result
    assert float(match[1]) <= 3.0, result.stdout  # "OK"; systemd's default for a unit is 9.6
    text = unit.read_text()
    for line in (
        "User=ajr",
        "EnvironmentFile=/etc/ajr/ajr.env",
        "Restart=on-failure",
        "NoNewPrivileges=yes",
    ):
        assert line in text.splitlines(), line


def manifests() -> list[tuple[str, dict[str, Any]]]:
    found = []
    for path in sorted((DEPLOY / "k8s").glob("*.yaml")):
        if path.name == "temporal-values.yaml":  # Helm values, not a manifest
            continue
        for n, document in enumerate(yaml.safe_load_all(path.read_text())):
            if document:
                found.append((f"{path.name}#{n}", document))
    return found


@pytest.mark.parametrize(("name", "manifest"), manifests(), ids=[n for n, _ in manifests()])
def test_manifest_matches_the_kubernetes_schema(name: str, manifest: dict[str, Any]) -> None:
    kubernetes_validate.validate(manifest, K8S_VERSION, strict=True)


def test_schema_validation_would_catch_a_typo() -> None:
    (deployment,) = [m for _, m in manifests() if m["kind"] == "Deployment"]
    broken = yaml.safe_load(yaml.safe_dump(deployment))
    broken["spec"]["template"]["spec"]["containers"][0]["resource"] = {}
    with pytest.raises(kubernetes_validate.ValidationError):
        kubernetes_validate.validate(broken, K8S_VERSION, strict=True)


def test_manifests_pass_checkov() -> None:
    checkov = REPO / ".venv-checkov" / "bin" / "checkov"
    if not checkov.exists():
        pytest.fail(f"{checkov} is missing: `make {checkov.relative_to(REPO)}` installs it")
    result = subprocess.run(
        [str(checkov), "-d", str(DEPLOY / "k8s"), "--framework", "kubernetes", "--compact",
         "--quiet", "--skip-download", "--output", "json"],
        capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-2000:]
    summary = json.loads(result.stdout)["summary"]
    assert summary["failed"] == 0 and summary["passed"] >= 90, summary
    assert summary["skipped"] == 2, summary  # the two the Deployment's annotations justify


def test_worker_deployment_follows_the_production_rules() -> None:
    by_kind: dict[str, list[dict[str, Any]]] = {}
    for _, manifest in manifests():
        by_kind.setdefault(manifest["kind"], []).append(manifest)
    (deployment,) = by_kind["Deployment"]
    (pdb,) = by_kind["PodDisruptionBudget"]
    assert deployment["spec"]["replicas"] >= 2
    assert pdb["spec"]["minAvailable"] == 1
    assert pdb["spec"]["selector"] == deployment["spec"]["selector"]
    pod = deployment["spec"]["template"]["spec"]
    assert pod["securityContext"]["runAsNonRoot"] is True
    assert pod["automountServiceAccountToken"] is False
    assert pod["serviceAccountName"] in {m["metadata"]["name"] for m in by_kind["ServiceAccount"]}
    for container in pod["containers"] + pod["initContainers"]:
        assert container["resources"]["requests"] and container["resources"]["limits"]
        security = container["securityContext"]
        assert security["allowPrivilegeEscalation"] is False
        assert security["readOnlyRootFilesystem"] is True
    (worker,) = pod["containers"]
    for probe in ("livenessProbe", "readinessProbe", "startupProbe"):
        assert worker[probe]["httpGet"]["port"] == "metrics"
    mounts = {m["mountPath"] for m in worker["volumeMounts"]}
    assert {"/etc/slurm", "/run/munge"} <= mounts
    config = {m["metadata"]["name"]: m for m in by_kind["ConfigMap"]}["ajr-config"]["data"]
    assert config["AJR_METRICS_PORT"] == str(worker["ports"][0]["containerPort"])


def test_temporal_helm_values_use_mysql_persistence() -> None:
    values = yaml.safe_load((DEPLOY / "k8s" / "temporal-values.yaml").read_text())
    persistence = values["server"]["config"]["persistence"]
    for store in ("default", "visibility"):
        assert persistence[store]["driver"] == "sql"
        assert persistence[store]["sql"]["driver"] == "mysql8"
        assert persistence[store]["sql"]["existingSecret"]  # no password in the values
    assert not values["cassandra"]["enabled"] and not values["mysql"]["enabled"]
