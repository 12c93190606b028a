#ifndef CTIMERFD_H
#define CTIMERFD_H
#include <poll.h>
#include <sys/eventfd.h>
#include <sys/prctl.h>
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
static inline int ctimerfd_eventfd_cloexec(void) { return EFD_CLOEXEC; }
static inline int ctimerfd_eventfd_nonblock(void) { return EFD_NONBLOCK; }
/* Names the calling thread (prctl is variadic, so Swift cannot call it). */
static inline void ctimerfd_name_this_thread(const char *name) { prctl(PR_SET_NAME, (unsigned long)name, 0, 0, 0); }
#endif
