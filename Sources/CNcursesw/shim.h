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
static inline int cnc_key_f(int n) { return KEY_F(n); }
static inline mmask_t cnc_all_mouse_events(void) { return ALL_MOUSE_EVENTS | REPORT_MOUSE_POSITION; }

#endif
