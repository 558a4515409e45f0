# cython: language_level=3
"""Cancelling compiled work that runs without the GIL.

Python runs signal handlers in the main thread, between bytecodes, so a
KeyboardInterrupt cannot stop a long ``nogil`` section by itself.  Instead
the main thread waits for that work on a worker thread
(``havhex._threads.run_interruptibly``); on an interrupt it sets the work's
cancel flag and waits the few milliseconds the work takes to notice.

Each input object owns one flag.  A thread about to do compiled work for an
input names that flag with ``watch_cancel`` (a thread-local pointer, so the
kernels need no extra argument), and the kernels poll ``cancelled()`` every
few thousand steps or board rows; a hot loop that has the flag at hand (the
Havannah kernel, through its feed) polls it with ``cancel_requested``, one
load.  Cancelled work stops early and leaves a meaningless result, which the
caller discards as it raises the interrupt.
"""

cdef extern from *:
    """
    #include <errno.h>
    #include "havhex/_native/portable.h"
    static HAVHEX_THREAD_LOCAL const int *havhex_cancel_flag = 0;

    static inline int havhex_cancel_requested(const int *flag) {
        return havhex_flag_load(flag);
    }

    static inline void havhex_request_cancel(int *flag) {
        havhex_flag_store(flag, 1);
    }

    static inline void havhex_watch_cancel(const int *flag) {
        havhex_cancel_flag = flag;
    }

    static inline int havhex_cancelled(void) {
        const int *flag = havhex_cancel_flag;
        return flag != 0 && havhex_flag_load(flag);
    }

    /* Wait until ``fd`` has data (or its end) to read, looking at the watched
       cancel flag in between: a read from an idle pipe or terminal would
       otherwise block past a cancel.  0 when cancelled, else 1 (errors are
       left for the read itself to report).  Inline, as the functions above:
       the modules that cimport this file but read no descriptor (the
       boards) leave it unused, which plain static would warn about. */
    static inline int havhex_wait_readable(int fd) {
        if (havhex_cancel_flag == 0)
            return 1;
        for (;;) {
            if (havhex_cancelled())
                return 0;
            if (havhex_poll_readable(fd, 50))
                return !havhex_cancelled();
        }
    }
    """
    int ECANCELED           # the I/O fault of a cancelled read
    void request_cancel "havhex_request_cancel"(int* flag) noexcept nogil
    # Point this thread's polls at ``flag`` (NULL: nothing to watch).
    void watch_cancel "havhex_watch_cancel"(const int* flag) noexcept nogil
    bint cancelled "havhex_cancelled"() noexcept nogil
    # The poll of a hot loop that has the flag at hand: one load, where the
    # thread-local lookup would be a call that costs the loop registers.
    bint cancel_requested "havhex_cancel_requested"(const int* flag) noexcept nogil
    bint wait_readable "havhex_wait_readable"(int fd) noexcept nogil
