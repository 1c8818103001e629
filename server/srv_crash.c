/*
 * srv_crash.c: a fatal signal (SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT) is
 * not silent: the thread that took it writes which signal and the text of
 * the statement it was running to stderr, then the signal is raised again
 * with its default action, so the process still dumps core.
 *
 * A signal handler may only call async-signal-safe functions, so nothing is
 * formatted there: each thread keeps its note (the statement's text, cut to
 * a fixed size) in a thread-local buffer written before the statement runs,
 * and the handler only write(2)s buffers that are already complete. The note
 * is a copy, not a pointer, because the statement's own memory may be what
 * is broken.
 */
#include "server/srv_int.h"

#include <signal.h>
#include <string.h>
#include <unistd.h>

/* The statement's first bytes; a longer one is cut (the log says so). */
#define SRV_CRASH_NOTE_MAX 4096

typedef struct srv_crash_note {
    size_t len;
    bool cut;
    char text[SRV_CRASH_NOTE_MAX];
} srv_crash_note_t;

static __thread srv_crash_note_t srv__note;

void srv_crash_note(const char *what, const char *sql, size_t len)
{
    size_t w = strlen(what), n = 0;
    if (w > SRV_CRASH_NOTE_MAX / 2)
        w = SRV_CRASH_NOTE_MAX / 2;
    memcpy(srv__note.text, what, w);
    n = w;
    size_t room = SRV_CRASH_NOTE_MAX - n;
    srv__note.cut = len > room;
    if (len > room)
        len = room;
    /* A NUL would end nothing in write(2), but the message reads better without them. */
    for (size_t i = 0; i < len; i++)
        srv__note.text[n + i] = sql[i] != 0 ? sql[i] : ' ';
    srv__note.len = n + len;
}

void srv_crash_note_clear(void)
{
    srv__note.len = 0;
}

static void srv__write_all(const char *p, size_t n)
{
    while (n > 0) {
        ssize_t k = write(STDERR_FILENO, p, n);
        if (k <= 0)
            return;
        p += k;
        n -= (size_t)k;
    }
}

static void srv__crash_handler(int sig)
{
    const char *name = sig == SIGSEGV ? "SIGSEGV" : sig == SIGBUS ? "SIGBUS" : sig == SIGILL ? "SIGILL"
                     : sig == SIGFPE ? "SIGFPE" : sig == SIGABRT ? "SIGABRT" : "a fatal signal";
    srv__write_all("eddy: FATAL: ", 13);
    srv__write_all(name, strlen(name));
    if (srv__note.len > 0) {
        srv__write_all(" while running: ", 16);
        srv__write_all(srv__note.text, srv__note.len);
        if (srv__note.cut)
            srv__write_all(" [...]", 6);
    } else {
        srv__write_all(" outside any statement", 22);
    }
    srv__write_all("\n", 1);
    /* SA_RESETHAND restored the default action: raising again ends the process with a core. */
    raise(sig);
}

void srv_crash_install(void)
{
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
    /* The sanitizers' own handlers report more (and make check counts their reports). */
    return;
#endif
    /* A handler for a stack overflow of the main thread (loop 0) needs a stack of its own. */
    static char altstack[1 << 16];
    stack_t ss = {.ss_sp = altstack, .ss_size = sizeof altstack};
    sigaltstack(&ss, NULL);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = srv__crash_handler;
    sa.sa_flags = SA_RESETHAND | SA_NODEFER | SA_ONSTACK;
    sigemptyset(&sa.sa_mask);
    const int sigs[] = {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT};
    for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++)
        sigaction(sigs[i], &sa, NULL);
}
