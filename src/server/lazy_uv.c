/* lazy_uv.c: the libuv functions of the server's event loop (transport.c and
 * the files it serves), loaded with the library on first use (lazylib.h says
 * why). */
#include <stdarg.h>
#include <uv.h>

#include "server/lazylib.h"

#ifndef LIB_SONAME
#define LIB_SONAME "libuv.so.1"
#endif
#define LIB_PACKAGE "libuv1"

#define FUNCS(X)                                                                                                       \
    X(int, uv_async_init, (uv_loop_t * loop, uv_async_t *a, uv_async_cb cb), (loop, a, cb))                            \
    X(int, uv_async_send, (uv_async_t * a), (a))                                                                       \
    X(uint64_t, uv_hrtime, (void), ())                                                                                 \
    X(int, uv_is_closing, (const uv_handle_t *h), (h))                                                                 \
    X(int, uv_loop_close, (uv_loop_t * loop), (loop))                                                                  \
    X(int, uv_loop_init, (uv_loop_t * loop), (loop))                                                                   \
    X(uint64_t, uv_metrics_idle_time, (uv_loop_t * loop), (loop))                                                      \
    X(int, uv_poll_init, (uv_loop_t * loop, uv_poll_t *h, int fd), (loop, h, fd))                                      \
    X(int, uv_poll_start, (uv_poll_t * h, int events, uv_poll_cb cb), (h, events, cb))                                 \
    X(int, uv_poll_stop, (uv_poll_t * h), (h))                                                                         \
    X(int, uv_prepare_init, (uv_loop_t * loop, uv_prepare_t *p), (loop, p))                                            \
    X(int, uv_prepare_start, (uv_prepare_t * p, uv_prepare_cb cb), (p, cb))                                            \
    X(int, uv_run, (uv_loop_t * loop, uv_run_mode mode), (loop, mode))                                                 \
    X(int, uv_signal_init, (uv_loop_t * loop, uv_signal_t *h), (loop, h))                                              \
    X(int, uv_signal_start, (uv_signal_t * h, uv_signal_cb cb, int signum), (h, cb, signum))                           \
    X(int, uv_timer_init, (uv_loop_t * loop, uv_timer_t *h), (loop, h))                                                \
    X(int, uv_timer_start, (uv_timer_t * h, uv_timer_cb cb, uint64_t timeout, uint64_t repeat),                        \
      (h, cb, timeout, repeat))
#define VFUNCS(X)                                                                                                      \
    X(void, uv_close, (uv_handle_t * h, uv_close_cb cb), (h, cb))                                                      \
    X(void, uv_walk, (uv_loop_t * loop, uv_walk_cb cb, void *arg), (loop, cb, arg))

#define OWN(X) X(int, uv_loop_configure, , )

LAZYLIB_DEFINE

/* (variadic: UV_LOOP_BLOCK_SIGNAL takes a signal number, the other options
 * nothing) */
int uv_loop_configure(uv_loop_t *loop, uv_loop_option option, ...) {
    call_once(&lazy_once, lazy_load);
    if (option == UV_LOOP_BLOCK_SIGNAL) {
        va_list ap;
        va_start(ap, option);
        int signum = va_arg(ap, int);
        va_end(ap);
        return lazy_fn.uv_loop_configure(loop, option, signum);
    }
    return lazy_fn.uv_loop_configure(loop, option);
}
