// LD_PRELOAD shim: make fsync() fail (INJ_FSYNC_ERRNO) after INJ_FSYNC_AFTER calls, and/or open()/open64()/openat()
// of a path containing INJ_PATH fail with INJ_OPEN_ERRNO after INJ_OPEN_AFTER matching calls; only where RANK==INJ_RANK.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
static int active(void){const char*r=getenv("RANK"),*w=getenv("INJ_RANK");return !w||(r&&!strcmp(r,w));}
static int nfs=0,nop=0;
int fsync(int fd){static int(*f)(int);if(!f)f=dlsym(RTLD_NEXT,"fsync");const char*a=getenv("INJ_FSYNC_AFTER");
 if(a&&active()&&++nfs>atoi(a)){errno=atoi(getenv("INJ_FSYNC_ERRNO")?getenv("INJ_FSYNC_ERRNO"):"5");return -1;}return f(fd);}
static int hit(const char*p){const char*s=getenv("INJ_PATH"),*a=getenv("INJ_OPEN_AFTER");
 if(!s||!a||!p||!active()||!strstr(p,s))return 0;return ++nop>atoi(a);}
#define OE (getenv("INJ_OPEN_ERRNO")?atoi(getenv("INJ_OPEN_ERRNO")):116)
int open(const char*p,int fl,...){static int(*f)(const char*,int,...);if(!f)f=dlsym(RTLD_NEXT,"open");va_list ap;va_start(ap,fl);int m=va_arg(ap,int);va_end(ap);
 if(hit(p)){errno=OE;return -1;}return f(p,fl,m);}
int open64(const char*p,int fl,...){static int(*f)(const char*,int,...);if(!f)f=dlsym(RTLD_NEXT,"open64");va_list ap;va_start(ap,fl);int m=va_arg(ap,int);va_end(ap);
 if(hit(p)){errno=OE;return -1;}return f(p,fl,m);}
int openat(int d,const char*p,int fl,...){static int(*f)(int,const char*,int,...);if(!f)f=dlsym(RTLD_NEXT,"openat");va_list ap;va_start(ap,fl);int m=va_arg(ap,int);va_end(ap);
 if(hit(p)){errno=OE;return -1;}return f(d,p,fl,m);}
