#ifndef CTIMERFD_H
#define CTIMERFD_H
#include <sys/timerfd.h>
#include <time.h>

#ifndef TFD_TIMER_CANCEL_ON_SET
#define TFD_TIMER_CANCEL_ON_SET (1 << 1)
#endif

/* Swift cannot import the macros above as typed constants, so expose them as functions. */
static inline int ctimerfd_flag_abstime(void) { return TFD_TIMER_ABSTIME; }
static inline int ctimerfd_flag_cancel_on_set(void) { return TFD_TIMER_CANCEL_ON_SET; }
static inline int ctimerfd_flag_nonblock(void) { return TFD_NONBLOCK; }
static inline int ctimerfd_flag_cloexec(void) { return TFD_CLOEXEC; }
#endif
