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

// Key codes Swift cannot see (they are macros).
static inline int cnc_key_code_yes(void) { return KEY_CODE_YES; }
static inline int cnc_key_up(void) { return KEY_UP; }
static inline int cnc_key_down(void) { return KEY_DOWN; }
static inline int cnc_key_left(void) { return KEY_LEFT; }
static inline int cnc_key_right(void) { return KEY_RIGHT; }
static inline int cnc_key_sleft(void) { return KEY_SLEFT; }
static inline int cnc_key_sright(void) { return KEY_SRIGHT; }
static inline int cnc_key_sr(void) { return KEY_SR; }      // shift-up on xterm-like terminals
static inline int cnc_key_sf(void) { return KEY_SF; }      // shift-down
static inline int cnc_key_ppage(void) { return KEY_PPAGE; }
static inline int cnc_key_npage(void) { return KEY_NPAGE; }
static inline int cnc_key_home(void) { return KEY_HOME; }
static inline int cnc_key_end(void) { return KEY_END; }
static inline int cnc_key_enter(void) { return KEY_ENTER; }
static inline int cnc_key_backspace(void) { return KEY_BACKSPACE; }
static inline int cnc_key_dc(void) { return KEY_DC; }
static inline int cnc_key_btab(void) { return KEY_BTAB; }
static inline int cnc_key_f1(void) { return KEY_F(1); }
static inline mmask_t cnc_button1_double_clicked(void) { return BUTTON1_DOUBLE_CLICKED; }

/// Reads one key or character: returns OK (a character in *ch), KEY_CODE_YES (a key code in *ch) or ERR.
static inline int cnc_get_wch(int *ch) {
    wint_t value = 0;
    int status = get_wch(&value);
    *ch = (int)value;
    return status;
}

/// A terminfo string capability, or NULL when the terminal has none (tigetstr's (char *)-1 included).
static inline const char *cnc_tigetstr(const char *name) {
    char *value = tigetstr((char *)name);
    return value == (char *)-1 ? 0 : value;
}
/// A terminfo boolean (1), absent (0) or not a boolean (-1).
static inline int cnc_tigetflag(const char *name) { return tigetflag((char *)name); }
/// A terminfo number, or -1/-2 when absent or not a number.
static inline int cnc_tigetnum(const char *name) { return tigetnum((char *)name); }

/// Draws a wide-character string clipped by ncurses at the window edge.
static inline int cnc_put_string(int y, int x, const wchar_t *text, int n, int pair, attr_t attrs) {
    attr_set(attrs, 0, &pair);
    int status = mvaddnwstr(y, x, text, n);
    attr_set(A_NORMAL, 0, 0);
    return status;
}

/// Whether a cell of `window` is a blank in colour pair `pair` with no attributes (the mark left on preview
/// cells that are written directly to the terminal).
static inline int cnc_cell_is_mark(WINDOW *window, int y, int x, int pair) {
    cchar_t cell;
    int cy, cx;
    getyx(window, cy, cx);
    int status = mvwin_wch(window, y, x, &cell);
    wmove(window, cy, cx);
    if (status != OK) return 0;
    wchar_t text[CCHARW_MAX + 1];
    attr_t attrs = 0;
    short small = 0;
    int extended = 0;
    if (getcchar(&cell, text, &attrs, &small, &extended) == ERR) return 0;
    // The extended pair comes through `opts` (ncurses 6.1+); the short one otherwise.
    int found = extended != 0 ? extended : small;
    return text[0] == L' ' && text[1] == 0 && (attrs & ~A_COLOR) == 0 && found == pair;
}

/// For `count` cells of row `y` from column `x`: 1 where stdscr holds the mark (see `cnc_cell_is_mark`).
static inline void cnc_marked_cells(int y, int x, int count, int pair, unsigned char *out) {
    int cy, cx;
    getyx(stdscr, cy, cx);
    for (int i = 0; i < count; i++) out[i] = (unsigned char)cnc_cell_is_mark(stdscr, y, x + i, pair);
    wmove(stdscr, cy, cx);
}

/// Whether row `y` of stdscr differs from what ncurses believes is on the terminal (curscr): the rows the next
/// refresh writes to, where it may also rewrite, clear or shift cells it believes unchanged.
static inline int cnc_row_will_change(int y) {
    int columns = getmaxx(stdscr);
    // Reading moves a window's cursor; curscr's is where ncurses believes the terminal's cursor is.
    int cy, cx, py, px;
    getyx(stdscr, cy, cx);
    getyx(curscr, py, px);
    int differs = 0;
    for (int x = 0; x < columns && !differs; x++) {
        cchar_t a, b;
        if (mvwin_wch(stdscr, y, x, &a) != OK || mvwin_wch(curscr, y, x, &b) != OK) { differs = 1; break; }
        wchar_t ta[CCHARW_MAX + 1], tb[CCHARW_MAX + 1];
        attr_t aa = 0, ab = 0;
        short sa = 0, sb = 0;
        int pa = 0, pb = 0;
        getcchar(&a, ta, &aa, &sa, &pa);
        getcchar(&b, tb, &ab, &sb, &pb);
        if (aa != ab || pa != pb || sa != sb || wcscmp(ta, tb) != 0) differs = 1;
    }
    wmove(stdscr, cy, cx);
    wmove(curscr, py, px);
    return differs;
}

/// newterm on the process's own stdout/stdin (Swift 6 cannot touch the C `stdout` global safely).
static inline SCREEN *cnc_newterm(const char *term) { return newterm(term, stdout, stdin); }
/// newterm reading keys from `input` (the terminal opened as /dev/tty when stdin carries data, such as a video).
static inline SCREEN *cnc_newterm_input(const char *term, FILE *input) { return newterm(term, stdout, input); }
static inline int cnc_init_extended_pair(int pair, int fg, int bg) { return init_extended_pair(pair, fg, bg); }

// Last: term.h defines many short macros (lines, columns ...) that must not touch the code above.
#include <ncursesw/term.h>
/// Reads a terminal description without starting curses: its colour count and whether it declares direct colour
/// (the RGB or tmux's Tc capability). Returns 0, or -1 when the terminal type is unknown.
static inline int cnc_probe_terminal(const char *term, int *colors, int *rgb) {
    TERMINAL *saved = cur_term;
    int error = 0;
    if (setupterm((char *)term, 1, &error) != OK) {
        set_curterm(saved);
        return -1;
    }
    *colors = tigetnum((char *)"colors");
    *rgb = tigetflag((char *)"RGB") == 1 || tigetflag((char *)"Tc") == 1;
    TERMINAL *probe = cur_term;
    set_curterm(saved);
    del_curterm(probe);
    return 0;
}

/// Whether a terminal type can move the cursor (cup) and clear the screen (clear): without them (TERM=dumb) a
/// full-screen program shows nothing useful. Returns 1 or 0, or -1 when the terminal type is unknown.
static inline int cnc_probe_addressing(const char *term) {
    TERMINAL *saved = cur_term;
    int error = 0;
    if (setupterm((char *)term, 1, &error) != OK) {
        set_curterm(saved);
        return -1;
    }
    char *cup = tigetstr((char *)"cup"), *clear = tigetstr((char *)"clear");
    int ok = cup != NULL && cup != (char *)-1 && clear != NULL && clear != (char *)-1;
    TERMINAL *probe = cur_term;
    set_curterm(saved);
    del_curterm(probe);
    return ok;
}
#endif
