#ifndef CNCURSES_SHIM_H
#define CNCURSES_SHIM_H

// The wide-character (XSI) curses API: cchar_t, setcchar, wget_wch, mvwadd_wch.
#define _XOPEN_SOURCE_EXTENDED 1
#define NCURSES_WIDECHAR 1

#include <errno.h>
#include <langinfo.h>
#include <locale.h>
#include <signal.h>
#include <stddef.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>
#include <wchar.h>
#include <ncursesw/curses.h>
#include <ncursesw/term.h>

// Swift cannot import function-like macros, macros built from casts and shifts, or use mutable
// C globals (stdscr, LINES, COLS, COLORS) under Swift 6 strict concurrency. These wrappers are
// the only way the Swift side touches them.

// MARK: - Globals

static inline WINDOW *cn_stdscr(void) { return stdscr; }
static inline WINDOW *cn_curscr(void) { return curscr; }
static inline int cn_lines(void) { return LINES; }
static inline int cn_cols(void) { return COLS; }
static inline int cn_colors(void) { return COLORS; }
static inline int cn_color_pairs(void) { return COLOR_PAIRS; }

// MARK: - Key codes (KEY_F(n) is a function-like macro; the rest are here for one spelling)

static inline int cn_key_code_yes(void) { return KEY_CODE_YES; }
static inline int cn_key_f(int n) { return KEY_F(n); }
static inline int cn_key_up(void) { return KEY_UP; }
static inline int cn_key_down(void) { return KEY_DOWN; }
static inline int cn_key_left(void) { return KEY_LEFT; }
static inline int cn_key_right(void) { return KEY_RIGHT; }
static inline int cn_key_home(void) { return KEY_HOME; }
static inline int cn_key_end(void) { return KEY_END; }
static inline int cn_key_ppage(void) { return KEY_PPAGE; }
static inline int cn_key_npage(void) { return KEY_NPAGE; }
static inline int cn_key_btab(void) { return KEY_BTAB; }
static inline int cn_key_backspace(void) { return KEY_BACKSPACE; }
static inline int cn_key_dc(void) { return KEY_DC; }
static inline int cn_key_enter(void) { return KEY_ENTER; }
static inline int cn_key_resize(void) { return KEY_RESIZE; }
static inline int cn_key_a1(void) { return KEY_A1; }
static inline int cn_key_a3(void) { return KEY_A3; }
static inline int cn_key_c1(void) { return KEY_C1; }
static inline int cn_key_c3(void) { return KEY_C3; }
static inline int cn_key_beg(void) { return KEY_BEG; }
static inline int cn_key_find(void) { return KEY_FIND; }
static inline int cn_key_select(void) { return KEY_SELECT; }
static inline int cn_key_sleft(void) { return KEY_SLEFT; }
static inline int cn_key_sright(void) { return KEY_SRIGHT; }
static inline int cn_key_sr(void) { return KEY_SR; }
static inline int cn_key_sf(void) { return KEY_SF; }
static inline int cn_key_shome(void) { return KEY_SHOME; }
static inline int cn_key_send(void) { return KEY_SEND; }
static inline int cn_key_sdc(void) { return KEY_SDC; }

// MARK: - Mouse (KEY_MOUSE and the button masks are macros built from shifts)

static inline int cn_key_mouse(void) { return KEY_MOUSE; }
static inline mmask_t cn_button1_pressed(void) { return BUTTON1_PRESSED; }
static inline mmask_t cn_button1_released(void) { return BUTTON1_RELEASED; }
static inline mmask_t cn_button1_clicked(void) { return BUTTON1_CLICKED; }
static inline mmask_t cn_button1_double_clicked(void) { return BUTTON1_DOUBLE_CLICKED; }
static inline mmask_t cn_button4_pressed(void) { return BUTTON4_PRESSED; }
static inline mmask_t cn_button5_pressed(void) {
#ifdef BUTTON5_PRESSED
    return BUTTON5_PRESSED;
#else
    return 0;
#endif
}
static inline int cn_key_max(void) { return KEY_MAX; }

/// Whether the terminal type `term` can address the cursor (terminfo `cup`): 1 yes, 0 no, -1
/// when the type is unknown. Reads the entry without touching the terminal's modes.
static inline int cn_terminal_addresses_cursor(const char *term, int fd) {
    int error = 0;
    TERMINAL *previous = cur_term;
    if (setupterm(term, fd, &error) != OK) {
        return -1;
    }
    TERMINAL *probe = cur_term;
    char *cup = tigetstr("cup");
    int result = (cup != NULL && cup != (char *)-1 && cup[0] != 0) ? 1 : 0;
    set_curterm(previous);
    del_curterm(probe);
    return result;
}

// MARK: - Attributes (NCURSES_BITS macros)

static inline attr_t cn_attr_normal(void) { return WA_NORMAL; }
static inline attr_t cn_attr_bold(void) { return WA_BOLD; }
static inline attr_t cn_attr_reverse(void) { return WA_REVERSE; }
static inline attr_t cn_attr_underline(void) { return WA_UNDERLINE; }
static inline attr_t cn_attr_dim(void) { return WA_DIM; }

// MARK: - Painting

/// Writes one cell: `text` is a NUL-terminated spacing character followed by at most
/// CCHARW_MAX - 1 non-spacing ones. Returns ERR when ncurses rejects the character; writing the
/// bottom-right cell of a non-scrolling window also returns ERR, but the cell is stored.
static inline int cn_put_cell(WINDOW *win, int y, int x, const wchar_t *text, attr_t attrs,
                              short pair) {
    cchar_t cell;
    if (setcchar(&cell, text, attrs, pair, NULL) == ERR) {
        return ERR;
    }
    if (wmove(win, y, x) == ERR) {
        return ERR;
    }
    return wadd_wch(win, &cell);
}

/// Writes one cell in colour pair `pair`, which may be above 32767 (an extended pair from
/// `alloc_pair`): ncurses takes such a pair through setcchar's `opts` pointer.
static inline int cn_put_cell_pair(WINDOW *win, int y, int x, const wchar_t *text, attr_t attrs, int pair) {
    cchar_t cell;
    int extended = pair;
    if (setcchar(&cell, text, attrs, 0, &extended) == ERR) {
        return ERR;
    }
    if (wmove(win, y, x) == ERR) {
        return ERR;
    }
    return wadd_wch(win, &cell);
}

/// A colour pair for `foreground` on `background` (-1: the terminal's own), made or reused by
/// ncurses' pair allocator, which recycles the least recently used pair when all are taken;
/// -1 when the terminal has no pairs to give.
static inline int cn_alloc_pair(int foreground, int background) {
    return alloc_pair(foreground, background);
}

/// The length of the string capability `name` (e.g. "rmcup") of the current terminal, copied
/// into `buffer` when it fits; 0 when the terminal lacks it.
static inline size_t cn_string_capability(const char *name, char *buffer, size_t capacity) {
    char *value = tigetstr(name);
    if (value == NULL || value == (char *)-1) {
        return 0;
    }
    size_t length = strlen(value);
    if (length > capacity) {
        return 0;
    }
    memcpy(buffer, value, length);
    return length;
}

// glibc declares wcwidth only for _XOPEN_SOURCE, which the prebuilt Glibc module lacks.
extern int wcwidth(wchar_t character);

/// The columns `character` takes in the current locale; -1 for non-printable ones.
static inline int cn_wcwidth(wchar_t character) { return wcwidth(character); }

static inline int cn_is_utf8_codeset(void) {
    const char *codeset = nl_langinfo(CODESET);
    return codeset != NULL && (strcmp(codeset, "UTF-8") == 0 || strcmp(codeset, "utf8") == 0);
}

/// Whether `signo` currently has its default action (not ignored, no handler).
static inline int cn_signal_is_default(int signo) {
    struct sigaction current;
    if (sigaction(signo, NULL, &current) != 0) {
        return 0;
    }
    return (current.sa_flags & SA_SIGINFO) == 0 && current.sa_handler == SIG_DFL;
}

// MARK: - Signal trap
//
// Everything a signal handler touches lives here, in C, and is async-signal-safe: the handlers
// only read state prepared before curses mode (the reset escape bytes, the saved termios, the
// saved file descriptors) and call write(2), tcsetattr(3), dup2(2), sigaction(2), signal(2)
// and raise(3).
//
// The state is a static of this header, so each object file that uses these functions gets its
// own copy: exactly one Swift file (SignalTrap.swift) may call the cn_trap_* functions.

#define CN_TRAP_BYTES_CAPACITY 512
#define CN_TRAP_NOTE_CAPACITY 1024
#define CN_TRAP_SIGNAL_LIMIT 65

struct cn_trap_state {
    volatile sig_atomic_t armed;
    volatile sig_atomic_t restored;
    volatile sig_atomic_t pending;
    int tty_fd;
    int saved_stdout;
    int saved_stderr;
    struct termios termios;
    char reset[CN_TRAP_BYTES_CAPACITY];
    size_t reset_length;
    char note[CN_TRAP_NOTE_CAPACITY];
    size_t note_length;
    int installed[CN_TRAP_SIGNAL_LIMIT];
    struct sigaction previous[CN_TRAP_SIGNAL_LIMIT];
};

// A function-local static: Swift emits a header's static inline functions (and their local
// statics) into the object files that call them, but not a header's file-scope variables.
static inline struct cn_trap_state *cn_trap_state(void) {
    static struct cn_trap_state state;
    return &state;
}

#define cn_trap (*cn_trap_state())

static inline void cn_trap_write_all(int fd, const char *bytes, size_t length) {
    while (length > 0) {
        ssize_t written = write(fd, bytes, length);
        if (written < 0) {
            if (errno == EINTR) {
                continue;
            }
            return;
        }
        bytes += written;
        length -= (size_t)written;
    }
}

/// Puts the terminal and fds 1 and 2 back as they were; safe to call from a signal handler.
static inline void cn_trap_emergency_restore(void) {
    if (!cn_trap.armed || cn_trap.restored) {
        return;
    }
    cn_trap.restored = 1;
    int saved_errno = errno;
    cn_trap_write_all(cn_trap.tty_fd, cn_trap.reset, cn_trap.reset_length);
    tcsetattr(cn_trap.tty_fd, TCSANOW, &cn_trap.termios);
    if (cn_trap.saved_stdout >= 0) {
        dup2(cn_trap.saved_stdout, STDOUT_FILENO);
    }
    if (cn_trap.saved_stderr >= 0) {
        dup2(cn_trap.saved_stderr, STDERR_FILENO);
    }
    cn_trap_write_all(STDERR_FILENO, cn_trap.note, cn_trap.note_length);
    errno = saved_errno;
}

/// Gives `signo` back to whoever had it before us: the Swift runtime's backtracer, or the
/// default action (a core dump for crashes).
static inline void cn_trap_reinstall_previous(int signo) {
    if (signo > 0 && signo < CN_TRAP_SIGNAL_LIMIT && cn_trap.installed[signo]) {
        sigaction(signo, &cn_trap.previous[signo], NULL);
        cn_trap.installed[signo] = 0;
    } else {
        signal(signo, SIG_DFL);
    }
}

/// Restores the terminal, then passes the crash on. A fault the kernel raised (a bad access, an
/// illegal instruction: si_code > 0) happens again as soon as this handler returns, so the
/// previous handler sees it with its true address and context. Anything else (abort(), kill,
/// SIGTRAP, whose instruction would not run again) is raised anew, to be delivered on return.
static void cn_trap_on_crash(int signo, siginfo_t *info, void *context) {
    (void)context;
    cn_trap_emergency_restore();
    cn_trap_reinstall_previous(signo);
    int refaults = info != NULL && info->si_code > 0
        && (signo == SIGSEGV || signo == SIGBUS || signo == SIGILL || signo == SIGFPE);
    if (!refaults) {
        raise(signo);
    }
}

/// The first termination request is recorded for the main loop to act on; a second one means the
/// loop did not respond, so the terminal is restored here and the signal takes its course.
static void cn_trap_on_terminate(int signo) {
    if (cn_trap.pending == 0) {
        cn_trap.pending = signo;
        return;
    }
    cn_trap_emergency_restore();
    cn_trap_reinstall_previous(signo);
    raise(signo);
}

static inline int cn_trap_install_one(int signo, void (*handler)(int),
                                      void (*action_handler)(int, siginfo_t *, void *)) {
    if (signo <= 0 || signo >= CN_TRAP_SIGNAL_LIMIT || cn_trap.installed[signo]) {
        return 0;
    }
    struct sigaction action;
    memset(&action, 0, sizeof action);
    sigfillset(&action.sa_mask);
    action.sa_flags = SA_RESTART | SA_ONSTACK;
    if (action_handler != NULL) {
        action.sa_sigaction = action_handler;
        action.sa_flags |= SA_SIGINFO;
    } else {
        action.sa_handler = handler;
    }
    if (sigaction(signo, &action, &cn_trap.previous[signo]) != 0) {
        return -1;
    }
    cn_trap.installed[signo] = 1;
    return 0;
}

/// Installs the handlers (unarmed: they record termination requests and chain crashes).
static inline int cn_trap_install(void) {
    static const int crashes[] = {SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGABRT, SIGFPE, SIGSYS,
                                  SIGQUIT};
    static const int terminations[] = {SIGINT, SIGTERM, SIGHUP};
    cn_trap.pending = 0;
    for (size_t i = 0; i < sizeof crashes / sizeof crashes[0]; i++) {
        if (cn_trap_install_one(crashes[i], NULL, cn_trap_on_crash) != 0) {
            return -1;
        }
    }
    for (size_t i = 0; i < sizeof terminations / sizeof terminations[0]; i++) {
        if (cn_trap_install_one(terminations[i], cn_trap_on_terminate, NULL) != 0) {
            return -1;
        }
    }
    return 0;
}

/// Puts back every handler `cn_trap_install` replaced.
static inline void cn_trap_uninstall(void) {
    for (int signo = 1; signo < CN_TRAP_SIGNAL_LIMIT; signo++) {
        if (cn_trap.installed[signo]) {
            sigaction(signo, &cn_trap.previous[signo], NULL);
            cn_trap.installed[signo] = 0;
        }
    }
}

/// Arms the emergency restore with what to write and set; returns -1 when a buffer is too small.
static inline int cn_trap_arm(int tty_fd, const struct termios *termios, const char *reset,
                              size_t reset_length, int saved_stdout, int saved_stderr,
                              const char *note, size_t note_length) {
    if (reset_length > CN_TRAP_BYTES_CAPACITY || note_length > CN_TRAP_NOTE_CAPACITY) {
        return -1;
    }
    cn_trap.armed = 0;
    cn_trap.tty_fd = tty_fd;
    cn_trap.termios = *termios;
    if (reset_length > 0) {
        memcpy(cn_trap.reset, reset, reset_length);
    }
    cn_trap.reset_length = reset_length;
    cn_trap.saved_stdout = saved_stdout;
    cn_trap.saved_stderr = saved_stderr;
    if (note_length > 0) {
        memcpy(cn_trap.note, note, note_length);
    }
    cn_trap.note_length = note_length;
    cn_trap.restored = 0;
    cn_trap.armed = 1;
    return 0;
}

static inline void cn_trap_disarm(void) { cn_trap.armed = 0; }

static inline int cn_trap_is_restored(void) { return cn_trap.restored; }

/// The first termination signal received since the trap was installed, or 0.
static inline int cn_trap_pending(void) { return cn_trap.pending; }

#endif
