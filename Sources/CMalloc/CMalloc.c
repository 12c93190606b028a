/* Header-only: see include/CMalloc.h. SwiftPM needs one source file per C target. */
