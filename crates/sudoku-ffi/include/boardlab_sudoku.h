/*
 * boardlab_sudoku.h: the C interface of boardlab's sudoku solver (crate `sudoku-ffi`).
 *
 * Link with libboardlab_sudoku.a (plus -lpthread -ldl -lm on Linux) or libboardlab_sudoku.so.
 *
 * A puzzle is 81 bytes in row-major order (r1c1 .. r1c9, r2c1, ..., r9c9): '1'..'9' for a clue, '.' or '0'
 * for an empty cell. Exactly 81 bytes are read; no terminating NUL is needed, and whatever follows is ignored.
 * A digit repeated in a row, column or box is allowed and gives a puzzle without solutions.
 *
 * Every function is thread-safe: the solver keeps no state between calls.
 */
#ifndef BOARDLAB_SUDOKU_H
#define BOARDLAB_SUDOKU_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Returned by the counting functions when the puzzle cannot be read: a NULL pointer, or a byte among the 81
 * that is neither '1'..'9' nor '.' nor '0'. boardlab_sudoku_check() tells which byte. */
#define BOARDLAB_SUDOKU_INVALID ((size_t)-1)

/* The number of solutions of `puzzle`, counting no further than `limit`: 0, 1, ..., or `limit` meaning "at
 * least `limit`" (a limit of 0 returns 0 at once; a limit of BOARDLAB_SUDOKU_INVALID counts to one less).
 * Counting to 2 tells whether a puzzle is proper (exactly one solution).
 * Returns BOARDLAB_SUDOKU_INVALID when the puzzle cannot be read.
 * Safety: `puzzle` is NULL or points to at least 81 readable bytes. */
size_t boardlab_sudoku_count(const char *puzzle, size_t limit);

/* Like boardlab_sudoku_count(), and also:
 *   - when at least one solution was found and `solution` is not NULL, writes the first solution found as 81
 *     bytes '1'..'9' (no NUL) to `solution`; otherwise `solution` is left untouched;
 *   - when `guesses` is not NULL, stores there the number of guesses the search made (0 when logic alone
 *     solved the puzzle; left untouched when the puzzle cannot be read).
 * With limit 1 this finds one solution as fast as possible, whether or not it is unique.
 * Safety: `puzzle` is NULL or points to at least 81 readable bytes; `solution` is NULL or points to at least 81
 * writable bytes; `guesses` is NULL or points to a writable size_t. `puzzle` may equal `solution`. */
size_t boardlab_sudoku_solve(const char *puzzle, size_t limit, char *solution, size_t *guesses);

/* Where `puzzle` cannot be read: the index (0..80) of the first byte that is neither '1'..'9' nor '.' nor
 * '0'; -1 when all 81 bytes are fine; -2 for a NULL pointer.
 * Safety: `puzzle` is NULL or points to at least 81 readable bytes. */
int boardlab_sudoku_check(const char *puzzle);

#ifdef __cplusplus
}
#endif

#endif /* BOARDLAB_SUDOKU_H */
