#ifndef CMALLOC_H
#define CMALLOC_H
/* glibc's malloc extensions (malloc_trim), which Swift's Glibc module does not include. */
#include <malloc.h>
#endif
