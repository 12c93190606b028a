// Intentionally empty: the target exists to export <sys/timerfd.h> to Swift.
#include "CTimerFD.h"
