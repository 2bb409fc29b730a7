#ifndef CNCURSESW_SHIM_H
#define CNCURSESW_SHIM_H

// SwiftPM drops the -D flags from ncursesw.pc; without these, cchar_t, setcchar and get_wch are missing.
#define NCURSES_WIDECHAR 1
#ifndef _XOPEN_SOURCE_EXTENDED
#define _XOPEN_SOURCE_EXTENDED 1
#endif

#include <locale.h>
#include <wchar.h>
#include <ncurses.h>
#include <term.h>
#include <sys/ioctl.h>
#include <string.h>

// Glibc's Swift module hides wcwidth.
extern int wcwidth(wchar_t c);

// Swift 6 rejects mutable C globals, and macros with casts do not import.
static inline WINDOW *cnc_stdscr(void) { return stdscr; }
static inline int cnc_lines(void) { return LINES; }
static inline int cnc_cols(void) { return COLS; }
static inline int cnc_colors(void) { return COLORS; }
static inline int cnc_color_pairs(void) { return COLOR_PAIRS; }
static inline attr_t cnc_a_bold(void) { return A_BOLD; }
static inline attr_t cnc_a_reverse(void) { return A_REVERSE; }
static inline attr_t cnc_a_underline(void) { return A_UNDERLINE; }
static inline attr_t cnc_a_dim(void) { return A_DIM; }
static inline attr_t cnc_a_normal(void) { return A_NORMAL; }

/// Sets a cell's glyph, attributes and (possibly extended) colour pair.
static inline int cnc_setcchar(cchar_t *cell, const wchar_t *text, attr_t attributes, int pair) {
    return setcchar(cell, text, attributes, 0, &pair);
}

/// The terminal's size from the kernel; ioctl is variadic, which Swift cannot call.
// (term.h defines `lines` and `columns` as macros, so the names here avoid them.)
static inline int cnc_terminal_size(int fd, int *row_count, int *column_count) {
    struct winsize size;
    if (ioctl(fd, TIOCGWINSZ, &size) != 0 || size.ws_row == 0 || size.ws_col == 0) return -1;
    *row_count = size.ws_row;
    *column_count = size.ws_col;
    return 0;
}

/// The window's size in pixels from the kernel, when the terminal fills it in (0 otherwise).
static inline int cnc_terminal_pixels(int fd, int *width, int *height, int *row_count, int *column_count) {
    struct winsize size;
    if (ioctl(fd, TIOCGWINSZ, &size) != 0) return -1;
    *width = size.ws_xpixel;
    *height = size.ws_ypixel;
    *row_count = size.ws_row;
    *column_count = size.ws_col;
    return 0;
}

/// Whether a terminal type's terminfo entry can move the cursor: 1 yes, 0 no (as `dumb`), -1 when the
/// system has no entry for it or it is too generic, -2 for a hardcopy terminal, -3 with no terminfo
/// database at all. Reads the entry without starting curses or writing anything: with a status pointer
/// setupterm reports instead of printing, and fd -1 leaves the terminal's modes alone.
static inline int cnc_terminal_addresses_cursor(const char *term) {
    int status = 0;
    TERMINAL *previous = cur_term;
    if (setupterm((char *)term, -1, &status) != OK) {
        if (cur_term != previous) {
            del_curterm(cur_term);
            set_curterm(previous);
        }
        return status == 1 ? -2 : status == -1 ? -3 : -1;
    }
    const char *cup = tigetstr("cup");
    int addresses = cup != NULL && cup != (const char *)-1;
    del_curterm(cur_term);
    set_curterm(previous);
    return addresses;
}
/// Whether the current terminal's setaf takes palette indices up to 255 as such (xterm-direct256 does,
/// xterm-direct sends everything from 8 up as RGB): 1 yes, 0 no.
static inline int cnc_setaf_takes_palette(void) {
    const char *setaf = tigetstr("setaf");
    if (setaf == NULL || setaf == (const char *)-1) return 1;
    return strstr(setaf, "38;5") != NULL;
}

/// Whether terminal type `term` is known to this system's terminfo, without starting curses.
static inline int cnc_terminal_known(const char *term) {
    int status = 0;
    TERMINAL *previous = cur_term;
    int known = setupterm((char *)term, -1, &status) == OK;
    if (cur_term != previous) {
        del_curterm(cur_term);
        set_curterm(previous);
    }
    return known;
}

/// The colours terminal type `term` declares (0 when unknown), and whether it has the RGB or Tc flag.
static inline int cnc_terminal_colors(const char *term, int *rgb) {
    int status = 0;
    TERMINAL *previous = cur_term;
    if (setupterm((char *)term, -1, &status) != OK) {
        if (cur_term != previous) { del_curterm(cur_term); set_curterm(previous); }
        *rgb = 0;
        return 0;
    }
    int colors = tigetnum("colors");
    *rgb = tigetflag("RGB") == 1 || tigetflag("Tc") == 1;
    del_curterm(cur_term);
    set_curterm(previous);
    return colors < 0 ? 0 : colors;
}
#endif
