"""TCP forwarder standing in for the network path from rank 1 to the store host: LISTEN -> TARGET.
On SIGUSR1 it resets every open connection (SO_LINGER 0 + close => RST) and stops accepting."""
import os, signal, socket, struct, sys, threading
lp, tp = int(sys.argv[1]), int(sys.argv[2]); conns = []; dead = False
def pump(a, b):
    try:
        while True:
            d = a.recv(65536)
            if not d: break
            b.sendall(d)
    except OSError: pass
def reset(*_):
    global dead; dead = True
    for c in conns:
        try: c.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0)); c.close()
        except OSError: pass
    os._exit(0)
signal.signal(signal.SIGUSR1, reset)
ls = socket.socket(); ls.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1); ls.bind(("127.0.0.1", lp)); ls.listen(16)
while not dead:
    c, _ = ls.accept()
    while True:
        try: t = socket.create_connection(("127.0.0.1", tp)); break
        except OSError: import time; time.sleep(0.2)
    conns += [c, t]
    threading.Thread(target=pump, args=(c, t), daemon=True).start(); threading.Thread(target=pump, args=(t, c), daemon=True).start()
