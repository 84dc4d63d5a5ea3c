// LD_PRELOAD shim for the h17b cases (gcc -shared -fPIC -O2 -o /work/lab17b/inject17.so inject17.c -ldl):
// in the process whose RANK equals INJ_RANK, once the file INJ_FLAG exists, every read() on an fd whose path contains
// INJ_PATH sleeps INJ_READ_US microseconds first (a slow filesystem on one node).
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
static ssize_t (*real_read)(int, void *, size_t);
static int active(int fd) {
  const char *r = getenv("RANK"), *want = getenv("INJ_RANK"), *flag = getenv("INJ_FLAG"), *pat = getenv("INJ_PATH");
  if (!r || !want || strcmp(r, want) || !pat) return 0;
  if (flag && access(flag, F_OK) != 0) return 0;
  char l[64], buf[512]; snprintf(l, sizeof l, "/proc/self/fd/%d", fd);
  ssize_t n = readlink(l, buf, sizeof buf - 1); if (n <= 0) return 0; buf[n] = 0;
  return strstr(buf, pat) != NULL;
}
ssize_t read(int fd, void *b, size_t c) {
  if (!real_read) real_read = dlsym(RTLD_NEXT, "read");
  if (active(fd)) { const char *us = getenv("INJ_READ_US"); usleep(us ? atoi(us) : 20000); }
  return real_read(fd, b, c);
}
