"""NVIDIA Xid codes: what each means for a training job, and parsing of NVRM Xid lines.

Meanings and actions follow NVIDIA's public Xid documentation:
  https://docs.nvidia.com/deploy/xid-errors/index.html (Xid Errors, the per-code table and
  "Xid resolution" advice) and the Ampere+ catalog with its resolution buckets
  https://docs.nvidia.com/deploy/xid-errors/analyzing-xid-catalog.html (RESTART_APP, RESET_GPU,
  RESTART_BM, CONTACT_SUPPORT, ...). The `exclude`/`requeue` columns are ajr's reading of those
  actions for a batch job: a GPU that needs a reset, a reboot or service must not host the
  requeued attempt; an error NVIDIA attributes to the application is not a node's fault.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from models.categories import Category


@dataclass(frozen=True)
class XidInfo:
    code: int
    meaning: str
    category: Category
    fatal: bool  # the processes using that GPU cannot continue
    requeue: bool | None  # requeue warranted; None: may be the application's own fault
    exclude: bool  # keep the node out of the requeued attempt
    action: str  # NVIDIA's immediate action, in short


def _x(
    code: int,
    meaning: str,
    category: str,
    fatal: bool,
    requeue: bool | None,
    exclude: bool,
    action: str,
) -> tuple[int, XidInfo]:
    return code, XidInfo(code, meaning, Category(category), fatal, requeue, exclude, action)


XID_TABLE: dict[int, XidInfo] = dict(
    [
        _x(8, "GPU stopped processing (channel idle timeout)", "GPU", True, True, False,
           "restart the application"),
        _x(13, "Graphics engine exception (often an out-of-range access by the application)",
           "APPLICATION", True, None, False, "restart the app; check its code if it recurs"),
        _x(31, "GPU memory page fault (an illegal address, usually the application's)",
           "APPLICATION", True, None, False, "restart the app; check its code if it recurs"),
        _x(32, "Invalid or corrupted push buffer stream (driver or PCIe bus)", "GPU", True, True,
           False, "restart the application; check the PCIe bus if it recurs"),
        _x(38, "Driver firmware error", "GPU", True, True, True, "reset the GPU"),
        _x(43, "GPU stopped processing (a fault the application caused; the GPU stays healthy)",
           "APPLICATION", True, None, False, "restart the application"),
        _x(45, "Preemptive cleanup after earlier errors or a killed process", "UNKNOWN", False,
           None, False, "none: look at the error that preceded it"),
        _x(48, "Double-bit ECC error (uncorrectable GPU memory error)", "GPU", True, True, True,
           "drain and reset the GPU; service if it recurs"),
        _x(61, "Internal micro-controller breakpoint/warning", "GPU", True, True, True,
           "reset the GPU"),
        _x(62, "Internal micro-controller halt", "GPU", True, True, True, "reset the GPU"),
        _x(63, "ECC page retirement or row remapping recorded", "GPU", False, None, False,
           "reset the GPU when idle to activate the remap"),
        _x(64, "ECC page retirement or row remapping failed to record", "GPU", True, True, True,
           "drain; reset the GPU; service if it recurs"),
        _x(68, "Video processor (NVDEC) exception", "GPU", True, True, True, "reset the GPU"),
        _x(74, "NVLink error", "GPU", True, True, True, "reset the GPU; check the NVLink"),
        _x(79, "GPU has fallen off the bus", "GPU", True, True, True,
           "drain; reboot the node; check PCIe, power and cooling"),
        _x(92, "High single-bit ECC error rate", "GPU", False, None, False,
           "monitor; reset the GPU when idle"),
        _x(94, "Contained ECC error (only the application using that memory is affected)", "GPU",
           True, True, True, "restart the application; reset the GPU to activate the row remap"),
        _x(95, "Uncontained ECC error (all applications on the GPU are affected)", "GPU", True,
           True, True, "drain and reset the GPU"),
        _x(109, "Context switch timeout", "GPU", True, True, False,
           "restart the application; check the GPU if it recurs"),
        _x(119, "GSP RPC timeout (GPU firmware not responding)", "GPU", True, True, True,
           "drain; reset the GPU or reboot the node"),
        _x(120, "GSP error (GPU firmware)", "GPU", True, True, True,
           "drain; reset the GPU or reboot the node"),
        _x(140, "Unrecovered ECC error", "GPU", True, True, True, "drain and reset the GPU"),
        _x(144, "NVLink SAW error", "GPU", True, True, True, "reset the GPU; check the NVLink"),
        _x(145, "NVLink RLW error", "GPU", True, True, True, "reset the GPU; check the NVLink"),
        _x(146, "NVLink TLW error", "GPU", True, True, True, "reset the GPU; check the NVLink"),
        _x(147, "NVLink TREX error", "GPU", True, True, True, "reset the GPU; check the NVLink"),
        _x(148, "NVLink NVLPW control error", "GPU", True, True, True,
           "reset the GPU; check the NVLink"),
        _x(149, "NVLink NETIR error", "GPU", True, True, True, "reset the GPU; check the NVLink"),
        _x(150, "NVLink MSE error", "GPU", True, True, True, "reset the GPU; check the NVLink"),
        _x(154, "GPU recovery action changed", "GPU", False, None, False,
           "follow the recovery action the line names"),
    ]
)  # fmt: skip


def xid_info(code: int) -> XidInfo:
    """What `code` means; an unknown code is a GPU event with no confident advice."""
    known = XID_TABLE.get(code)
    if known is not None:
        return known
    return XidInfo(
        code, f"Xid {code}", Category.GPU, False, None, False, "see NVIDIA's Xid catalog"
    )


# "NVRM: Xid (PCI:0000:3b:00): 79, pid=1234, name=python, GPU has fallen off the bus."
# Older drivers omit "PCI:"; pid/name may be '<unknown>' or absent.
_XID = re.compile(
    r"NVRM: Xid \((?:PCI:)?(?P<pci>[0-9A-Fa-f]{4}:[0-9A-Fa-f]{2}:[0-9A-Fa-f]{2}(?:\.\d)?)\): "
    r"(?P<code>\d{1,4})\b,?\s*"
    r"(?:pid=(?P<pid>'?<?[\w-]+>?'?),\s*)?"
    r"(?:name=(?P<name>\S+?),\s*)?"
    r"(?P<message>.*)$"
)
# "Jul 30 14:21:44 node17 kernel: ..." or "2024-07-30T14:21:44.1+00:00 node17 kernel: ..."
_HOST = re.compile(r"(?:^|\s)(?P<host>[A-Za-z0-9][\w.-]{0,63}) kernel: ")
# Xid 154 names the recovery the GPU now needs: "... from 0x0 (None) to 0x2 (Node Reboot
# Required)". Anything but "None" on the "to" side means the GPU must not be used as it is.
_RECOVERY_NEEDED = re.compile(r"\bto 0x[0-9A-Fa-f]+ \((?!None\))[^)]+\)")


@dataclass(frozen=True)
class XidEvent:
    code: int
    pci: str
    info: XidInfo
    message: str = ""
    pid: int | None = None
    process: str | None = None
    host: str | None = None  # when the line carries a syslog/journal prefix


def parse_xid(line: str) -> XidEvent | None:
    """The Xid event on an `NVRM: Xid (...)` line, with or without a syslog/dmesg prefix."""
    if "Xid" not in line:  # the cheap test first: almost no line mentions an Xid
        return None
    m = _XID.search(line)
    if m is None:
        return None
    code = int(m["code"])
    info = xid_info(code)
    message = m["message"].strip()
    if code == 154 and _RECOVERY_NEEDED.search(message):
        info = XidInfo(code, info.meaning, Category.GPU, True, True, True, message)
    pid_text = (m["pid"] or "").strip("'")
    name = m["name"]
    if name is not None and name.strip("'") == "<unknown>":
        name = None
    host = _HOST.search(line, 0, m.start())
    return XidEvent(
        code=code,
        pci=m["pci"],
        info=info,
        message=message,
        pid=int(pid_text) if pid_text.isdigit() else None,
        process=name,
        host=host["host"] if host is not None else None,
    )
