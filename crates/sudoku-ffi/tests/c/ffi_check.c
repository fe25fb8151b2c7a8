/* Drives libboardlab_sudoku through its header as a C program would; run by tests/c_abi.rs. Prints one line per
 * check and "all C checks passed" at the end; exits non-zero at the first failure. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "boardlab_sudoku.h"

static int failures = 0;

#define CHECK(cond, ...)                                     \
    do {                                                     \
        if (cond) {                                          \
            printf("ok: " __VA_ARGS__);                      \
        } else {                                             \
            printf("FAILED (%s:%d): ", __FILE__, __LINE__);  \
            printf(__VA_ARGS__);                             \
            failures++;                                      \
        }                                                    \
        printf("\n");                                        \
    } while (0)

/* Whether `s` is a full valid grid that keeps the clues of `p`. */
static int valid_solution_of(const char *s, const char *p) {
    for (int i = 0; i < 81; i++) {
        if (s[i] < '1' || s[i] > '9') return 0;
        if (p[i] >= '1' && p[i] <= '9' && p[i] != s[i]) return 0;
    }
    for (int u = 0; u < 9; u++) {
        int row = 0, col = 0, box = 0;
        for (int k = 0; k < 9; k++) {
            row |= 1 << (s[9 * u + k] - '1');
            col |= 1 << (s[9 * k + u] - '1');
            box |= 1 << (s[27 * (u / 3) + 3 * (u % 3) + 9 * (k / 3) + k % 3] - '1');
        }
        if (row != 0x1FF || col != 0x1FF || box != 0x1FF) return 0;
    }
    return 1;
}

int main(void) {
    /* Norvig's "hardest" puzzle and the solution published in his essay. */
    const char *hard = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";
    const char *hard_solution = "417369825632158947958724316825437169791586432346912758289643571573291684164875293";
    char solution[82] = {0};
    size_t guesses = 12345;

    size_t n = boardlab_sudoku_solve(hard, 2, solution, &guesses);
    CHECK(n == 1, "Norvig's hardest has one solution (got %zu)", n);
    CHECK(memcmp(solution, hard_solution, 81) == 0, "and it is the published one: %.81s", solution);
    CHECK(guesses != 12345, "the guess count was written (%zu)", guesses);
    CHECK(boardlab_sudoku_count(hard, 1) == 1, "limit 1 stops at one");

    /* Every cell that holds 1 or 2 in the solution emptied: 1s and 2s can swap, so at least two solutions. */
    char swap[82];
    memcpy(swap, hard_solution, 82);
    for (int i = 0; i < 81; i++) {
        if (swap[i] == '1' || swap[i] == '2') swap[i] = '0';
    }
    memset(solution, 'x', 81);
    n = boardlab_sudoku_solve(swap, 2, solution, NULL);
    CHECK(n == 2, "1s and 2s emptied: counting stops at 2 (got %zu)", n);
    CHECK(valid_solution_of(solution, swap), "the first solution found is valid: %.81s", solution);

    char empty[81];
    memset(empty, '.', 81);
    CHECK(boardlab_sudoku_count(empty, 1000) == 1000, "the empty grid counts to the limit");
    CHECK(boardlab_sudoku_count(empty, 0) == 0, "a limit of 0 counts nothing");

    /* A repeated clue: no solution, solution buffer untouched. */
    char twice[82];
    memcpy(twice, hard, 82);
    twice[1] = '4';
    memset(solution, 'x', 81);
    n = boardlab_sudoku_solve(twice, 2, solution, &guesses);
    CHECK(n == 0 && solution[0] == 'x', "a repeated 4 in row 1: no solution, buffer untouched (got %zu)", n);

    /* Bad input is reported, with where. */
    char bad[82];
    memcpy(bad, hard, 82);
    bad[57] = 'x';
    CHECK(boardlab_sudoku_count(bad, 2) == BOARDLAB_SUDOKU_INVALID, "a stray 'x' is refused");
    CHECK(boardlab_sudoku_check(bad) == 57, "at byte 57 (got %d)", boardlab_sudoku_check(bad));
    CHECK(boardlab_sudoku_check(hard) == -1, "a good puzzle checks");
    CHECK(boardlab_sudoku_check(NULL) == -2, "NULL is reported");
    CHECK(boardlab_sudoku_count(NULL, 2) == BOARDLAB_SUDOKU_INVALID, "NULL is not read");

    /* In place: the solution written over the puzzle. */
    char buf[82];
    memcpy(buf, hard, 82);
    CHECK(boardlab_sudoku_solve(buf, 1, buf, NULL) == 1 && memcmp(buf, hard_solution, 81) == 0,
          "puzzle and solution in the same buffer");

    /* Puzzles given on standard input, one per line: "count first-solution" per line. */
    char line[1024];
    while (fgets(line, sizeof line, stdin)) {
        if (strlen(line) < 81) continue;
        memset(solution, '-', 81);
        n = boardlab_sudoku_solve(line, 2, solution, NULL);
        if (n == BOARDLAB_SUDOKU_INVALID) {
            printf("line: invalid at %d\n", boardlab_sudoku_check(line));
        } else {
            printf("line: %zu %.81s\n", n, solution);
        }
    }

    if (failures) {
        printf("%d C checks failed\n", failures);
        return 1;
    }
    printf("all C checks passed\n");
    return 0;
}
