"""One Slurm command of the simulated cluster: argv over a Unix socket to the controller.

Standard library only, run with `python -S`: a shim costs what starting a small process costs.
"""

from __future__ import annotations

import json
import os
import socket
import sys


def main(socket_path: str) -> int:
    request = json.dumps({"argv": [os.path.basename(sys.argv[0]), *sys.argv[1:]]}).encode()
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as conn:
            conn.settimeout(60)
            conn.connect(socket_path)
            conn.sendall(request + b"\n")
            conn.shutdown(socket.SHUT_WR)
            chunks = []
            while chunk := conn.recv(1 << 20):
                chunks.append(chunk)
    except OSError as exc:
        print(f"{sys.argv[0]}: error: Unable to contact slurm controller ({exc})", file=sys.stderr)
        return 1
    answer = json.loads(b"".join(chunks))
    sys.stdout.write(answer["out"])
    sys.stderr.write(answer["err"])
    return int(answer["rc"])
