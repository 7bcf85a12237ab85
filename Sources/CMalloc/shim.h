// glibc's malloc tuning (mallopt), which its Swift module map leaves out.
#include <malloc.h>
