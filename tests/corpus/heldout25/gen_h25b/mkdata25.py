# 200k rows x 32 float32 features (25.6 MB), standard normal with a few correlated blocks
import sys, numpy as np
r = np.random.default_rng(25)
x = r.standard_normal((200000, 32)).astype(np.float32)
x[:, 8:16] += 0.5 * x[:, :8]
x.tofile(sys.argv[1])
