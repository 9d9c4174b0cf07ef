/*
 * help.h -- the --help text of InterCom's programs (intercom-info,
 * intercom-bench): an item is a left column (a command or an option with
 * its argument) and a description wrapped to the terminal's usual 79
 * columns.  The man pages are generated from this text
 * (scripts/man-from-help.sh reads "  LEFT  TEXT" items and their
 * continuation lines), so every program writes its help this way.
 */
#ifndef IC_HELP_H
#define IC_HELP_H

#include <stdio.h>
#include <string.h>

enum { IC_HELP_LEFT = 26, IC_HELP_WIDTH = 79 };

/* "  LEFT  text ..." with text wrapped at blanks; continuation lines start
 * at column IC_HELP_LEFT + 3. */
static inline void ic_help_item(FILE *f, const char *left, const char *text)
{
    int col;
    if ((int)strlen(left) > IC_HELP_LEFT) /* a long left column: text below it */
        col = fprintf(f, "  %s\n%*s", left, IC_HELP_LEFT + 3, "") - (int)strlen(left) - 3;
    else
        col = fprintf(f, "  %-*s ", IC_HELP_LEFT, left);
    const char *s = text;
    while (*s) {
        size_t w = strcspn(s, " ");
        if (col > IC_HELP_LEFT + 3 && col + 1 + (int)w > IC_HELP_WIDTH) {
            fprintf(f, "\n%*s", IC_HELP_LEFT + 3, "");
            col = IC_HELP_LEFT + 3;
        } else if (col > IC_HELP_LEFT + 3) {
            fputc(' ', f);
            col++;
        }
        col += fprintf(f, "%.*s", (int)w, s);
        s += w;
        while (*s == ' ')
            s++;
    }
    fputc('\n', f);
}

#endif /* IC_HELP_H */
