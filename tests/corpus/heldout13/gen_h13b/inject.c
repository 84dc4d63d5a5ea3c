// LD_PRELOAD fault shim: makes pread()/rename() fail with a chosen errno after N calls
// on paths containing a given substring, only in the process whose RANK equals INJ_RANK.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/types.h>
static int armed(void){const char*r=getenv("INJ_RANK"),*m=getenv("RANK");return r&&m&&!strcmp(r,m);}
static int fd_matches(int fd,const char*sub){char l[64],p[4096];snprintf(l,sizeof l,"/proc/self/fd/%d",fd);
 ssize_t n=readlink(l,p,sizeof p-1);if(n<0)return 0;p[n]=0;return strstr(p,sub)!=NULL;}
static long cnt_pread=0,cnt_ren=0;
static ssize_t do_pread(int fd,void*b,size_t c,off_t o,int is64){
 const char*sub=getenv("INJ_PREAD_PATH");
 if(sub&&armed()&&fd_matches(fd,sub)){long after=atol(getenv("INJ_PREAD_AFTER")?:"0");
  if(++cnt_pread>after){errno=atoi(getenv("INJ_PREAD_ERRNO")?:"5");return -1;}}
 ssize_t(*f)(int,void*,size_t,off_t)=dlsym(RTLD_NEXT,is64?"pread64":"pread");return f(fd,b,c,o);}
ssize_t pread(int fd,void*b,size_t c,off_t o){return do_pread(fd,b,c,o,0);}
ssize_t pread64(int fd,void*b,size_t c,off_t o){return do_pread(fd,b,c,o,1);}
static int ren_fail(const char*newp){const char*sub=getenv("INJ_RENAME_PATH");
 if(sub&&armed()&&strstr(newp,sub)){long after=atol(getenv("INJ_RENAME_AFTER")?:"0");
  if(++cnt_ren>after){errno=atoi(getenv("INJ_RENAME_ERRNO")?:"116");return 1;}}return 0;}
int rename(const char*o,const char*n){if(ren_fail(n))return -1;int(*f)(const char*,const char*)=dlsym(RTLD_NEXT,"rename");return f(o,n);}
int renameat(int a,const char*o,int b,const char*n){if(ren_fail(n))return -1;int(*f)(int,const char*,int,const char*)=dlsym(RTLD_NEXT,"renameat");return f(a,o,b,n);}
