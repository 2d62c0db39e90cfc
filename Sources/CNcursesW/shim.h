// ncursesw with wide characters; the macros Swift cannot import are wrapped in inline functions.
#ifndef CNCURSESW_SHIM_H
#define CNCURSESW_SHIM_H
#define NCURSES_WIDECHAR 1
#ifndef _XOPEN_SOURCE_EXTENDED
#define _XOPEN_SOURCE_EXTENDED 1
#endif
#include <locale.h>
#include <wchar.h>
#include <ncursesw/curses.h>

static inline int cnc_lines(void) { return LINES; }
static inline int cnc_cols(void) { return COLS; }
static inline int cnc_colors(void) { return COLORS; }
static inline int cnc_color_pairs(void) { return COLOR_PAIRS; }
static inline WINDOW *cnc_stdscr(void) { return stdscr; }
static inline attr_t cnc_a_bold(void) { return A_BOLD; }
static inline attr_t cnc_a_reverse(void) { return A_REVERSE; }
static inline attr_t cnc_a_dim(void) { return A_DIM; }
static inline attr_t cnc_a_underline(void) { return A_UNDERLINE; }
static inline attr_t cnc_a_normal(void) { return A_NORMAL; }
static inline mmask_t cnc_all_mouse_events(void) { return ALL_MOUSE_EVENTS | REPORT_MOUSE_POSITION; }
static inline mmask_t cnc_button1_pressed(void) { return BUTTON1_PRESSED; }
static inline mmask_t cnc_button1_released(void) { return BUTTON1_RELEASED; }
static inline mmask_t cnc_button1_clicked(void) { return BUTTON1_CLICKED; }
static inline mmask_t cnc_button4_pressed(void) { return BUTTON4_PRESSED; }
static inline mmask_t cnc_button5_pressed(void) { return BUTTON5_PRESSED; }
static inline mmask_t cnc_report_mouse_position(void) { return REPORT_MOUSE_POSITION; }
static inline int cnc_key_mouse(void) { return KEY_MOUSE; }
static inline int cnc_key_resize(void) { return KEY_RESIZE; }
static inline int cnc_err(void) { return ERR; }

/// Draws one cell: a wide character with a colour pair (pairs above 255 need the extended call).
static inline int cnc_put_cell(int y, int x, wchar_t ch, int pair, attr_t attrs) {
    cchar_t cell;
    wchar_t text[2] = { ch, 0 };
    setcchar(&cell, text, attrs, 0, &pair);
    return mvadd_wch(y, x, &cell);
}
#endif
