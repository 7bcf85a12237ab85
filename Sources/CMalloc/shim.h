// glibc's malloc tuning, which its Swift module map leaves out.
#include <malloc.h>
