"""Xid table and NVRM Xid line parsing."""

from __future__ import annotations

import pytest

from analysis.xid import XID_TABLE, parse_xid, xid_info

pytestmark = pytest.mark.unit

REQUIRED = (13, 31, 43, 45, 48, 61, 62, 63, 64, 68, 74, 79, 92, 94, 95, 119)


def test_every_required_code_is_described() -> None:
    for code in REQUIRED:
        info = XID_TABLE[code]
        assert info.code == code
        assert info.meaning and info.action
        assert info.category in {"GPU", "NODE", "APPLICATION", "UNKNOWN"}


@pytest.mark.parametrize(
    ("code", "category", "fatal", "requeue", "exclude"),
    [
        (79, "GPU", True, True, True),  # fallen off the bus: the GPU, keep the node out
        (48, "GPU", True, True, True),  # double-bit ECC
        (95, "GPU", True, True, True),  # uncontained ECC: GPU reset required
        (119, "GPU", True, True, True),  # GSP firmware timeout
        (13, "APPLICATION", True, None, False),  # usually the program's own bad access
        (31, "APPLICATION", True, None, False),
        (43, "APPLICATION", True, None, False),
        (63, "GPU", False, None, False),  # row remap recorded: informational
        (92, "GPU", False, None, False),
        (45, "UNKNOWN", False, None, False),  # cleanup after something else
    ],
)
def test_advice(code: int, category: str, fatal: bool, requeue: bool | None, exclude: bool) -> None:
    info = xid_info(code)
    assert (info.category, info.fatal, info.requeue, info.exclude) == (
        category,
        fatal,
        requeue,
        exclude,
    )


def test_unknown_code_gives_no_confident_advice() -> None:
    info = xid_info(999)
    assert (info.category, info.fatal, info.requeue, info.exclude) == ("GPU", False, None, False)


@pytest.mark.parametrize(
    ("line", "code", "pci", "pid", "process", "host", "message"),
    [
        (
            "NVRM: Xid (PCI:0000:3b:00): 79, pid=1234, name=python3, GPU has fallen off the bus.",
            79, "0000:3b:00", 1234, "python3", None, "GPU has fallen off the bus.",
        ),
        (
            "May 18 19:02:39 gpu-node-7 kernel: "
            "NVRM: Xid (PCI:0000:2b:00): 79, GPU has fallen off the bus.",
            79, "0000:2b:00", None, None, "gpu-node-7", "GPU has fallen off the bus.",
        ),
        (
            "[Tue Jul 30 14:21:44 2024] NVRM: Xid (PCI:0000:10:1c): 63, pid=1896, "
            "Row Remapper: New row marked for remapping, reset gpu to activate.",
            63, "0000:10:1c", 1896, None, None,
            "Row Remapper: New row marked for remapping, reset gpu to activate.",
        ),
        (
            "Jul 30 14:21:44 node1 kernel: [12345.678] NVRM: Xid (PCI:0000:b7:00): 13, "
            "pid='<unknown>', name=<unknown>, "
            "Graphics SM Warp Exception on (GPC 0, TPC 1, SM 0): Out Of Range Address",
            13, "0000:b7:00", None, None, "node1",
            "Graphics SM Warp Exception on (GPC 0, TPC 1, SM 0): Out Of Range Address",
        ),
        (
            "NVRM: Xid (0000:01:00): 3, C 00000005 SC 00000007 M 00001ffc Data ffffffff",
            3, "0000:01:00", None, None, None, "C 00000005 SC 00000007 M 00001ffc Data ffffffff",
        ),
        (
            "5: NVRM: Xid (PCI:0000:9b:00): 94, pid=777, name=pt_main_thread, "
            "Contained: SM (0x1). RST: No, D-RST: No",
            94, "0000:9b:00", 777, "pt_main_thread", None,
            "Contained: SM (0x1). RST: No, D-RST: No",
        ),
    ],
)  # fmt: skip
def test_parse_xid(
    line: str,
    code: int,
    pci: str,
    pid: int | None,
    process: str | None,
    host: str | None,
    message: str,
) -> None:
    event = parse_xid(line)
    assert event is not None
    assert (event.code, event.pci, event.pid, event.process, event.host, event.message) == (
        code,
        pci,
        pid,
        process,
        host,
        message,
    )
    assert event.info.code == code


@pytest.mark.parametrize(
    "line",
    [
        "iteration 30/100 | TFLOP/s/GPU: 386.7",
        "Xid errors are logged by the driver",  # mentions Xid, is no event
        "NVRM: loading NVIDIA UNIX x86_64 Kernel Module  535.104.05",
        "",
    ],
)
def test_non_xid_lines(line: str) -> None:
    assert parse_xid(line) is None


def test_xid_154_follows_the_named_recovery_action() -> None:
    needs_reboot = parse_xid(
        "NVRM: Xid (PCI:0000:4e:00): 154, GPU recovery action changed from 0x0 (None) "
        "to 0x2 (Node Reboot Required)"
    )
    assert needs_reboot is not None
    assert needs_reboot.info.exclude and needs_reboot.info.fatal
    cleared = parse_xid(
        "NVRM: Xid (PCI:0000:4e:00): 154, GPU recovery action changed from 0x1 "
        "(GPU Reset Required) to 0x0 (None)"
    )
    assert cleared is not None
    # the GPU Reset is the action being left: only the "to" side counts
    assert cleared.info.exclude is False
