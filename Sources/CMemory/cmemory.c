#include "cmemory.h"
#include <stdlib.h>
#if defined(__GLIBC__)
#include <malloc.h>
#endif

void cmemory_release_free_pages(void) {
#if defined(__GLIBC__)
    malloc_trim(0);
#endif
}
