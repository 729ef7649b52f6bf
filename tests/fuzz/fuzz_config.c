/*
 * libFuzzer harness: the environment parser (src/common/common_config.c).
 *
 * The input is a list of environment entries, one per line.  A line that
 * starts with a byte 0x01..0x1f names a row of the configuration table by
 * index (the rest of the line is the value), so the fuzzer reaches every
 * variable without guessing names; any other line is a raw "NAME=value"
 * entry.  When the input does not end in a line feed, its last byte is
 * not text but the error buffer length (0..255; otherwise 256).  The table
 * itself (common_config.def) is read through the same X-macros the library
 * uses, so the harness follows new rows without edits.
 *
 * Invariants (abort() when violated):
 *  - the parser returns 0 or -1; on -1 the message is terminated, non-empty
 *    and names the variable, and that variable's value is set (non-empty)
 *    in the environment;
 *  - on 0 every field is in range (BOOL 0/1, INT and LONG >= 0, ENUM a
 *    valid index whose name armcii_config_choice knows), from_env has
 *    exactly the rows whose variable is set and non-empty, and the unset
 *    rows hold their defaults;
 *  - round trip: the dump of the configuration (armcii_config_dump), read
 *    back as an environment, parses to the same configuration;
 *  - warnings are terminated, fewer than 256 bytes, at most one per entry,
 *    and only for entries that start with ARMCI_.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../../src/common/common.h"
#include "../../src/common/common_config.h"
#include "fuzz_input.h"

#define CHECK(c)                                                              \
    do {                                                                      \
        if (!(c)) {                                                           \
            fprintf(stderr, "fuzz_config: invariant '%s' violated at line %d\n", #c, __LINE__); \
            abort();                                                          \
        }                                                                     \
    } while (0)

enum kind { K_BOOL, K_INT, K_LONG, K_ENUM };
typedef struct {
    const char *name;
    enum kind kind;
    size_t offset;
    long dflt;
    const char *choices;
} row_t;

#define ARMCII_CFG_BOOL(N, f, d, h) {#N, K_BOOL, offsetof(armcii_config_t, f), d, NULL},
#define ARMCII_CFG_INT(N, f, d, h) {#N, K_INT, offsetof(armcii_config_t, f), d, NULL},
#define ARMCII_CFG_LONG(N, f, d, h) {#N, K_LONG, offsetof(armcii_config_t, f), d, NULL},
#define ARMCII_CFG_ENUM(N, f, c, d, h) {#N, K_ENUM, offsetof(armcii_config_t, f), d, c},
static const row_t rows[] = {
#include "../../src/common/common_config.def"
};
#undef ARMCII_CFG_BOOL
#undef ARMCII_CFG_INT
#undef ARMCII_CFG_LONG
#undef ARMCII_CFG_ENUM
#define NROWS (sizeof rows / sizeof rows[0])

#define MAX_ENTRIES 64

/* The fake environment: entries as separate heap strings (exact size). */
static char *env[MAX_ENTRIES + 1];
static int nenv;

static const char *fake_getenv(const char *name)
{
    size_t n = strlen(name);
    for (int i = 0; i < nenv; i++)
        if (!strncmp(env[i], name, n) && env[i][n] == '=')
            return env[i] + n + 1;
    return NULL;
}

static int nwarn;
static void warn(const char *msg)
{
    CHECK(strnlen(msg, 256) < 256);
    CHECK(!strncmp(msg, "unknown environment variable ARMCI_", 35));
    nwarn++;
}

static long field(const armcii_config_t *c, const row_t *r)
{
    const char *p = (const char *)c + r->offset;
    return r->kind == K_LONG ? *(const long *)p : *(const int *)p;
}

static int nchoices(const char *c)
{
    int n = 1;
    for (; *c; c++)
        n += *c == '|';
    return n;
}

static void clear_env(void)
{
    for (int i = 0; i < nenv; i++)
        free(env[i]);
    nenv = 0;
    env[0] = NULL;
}

static void add_env(const char *name, const char *value, size_t vlen)
{
    if (nenv == MAX_ENTRIES)
        return;
    size_t nl = name ? strlen(name) + 1 : 0;
    char *e = malloc(nl + vlen + 1);
    if (!e)
        abort();
    if (name) {
        memcpy(e, name, nl - 1);
        e[nl - 1] = '=';
    }
    memcpy(e + nl, value, vlen);
    e[nl + vlen] = '\0';
    env[nenv++] = e;
    env[nenv] = NULL;
}

/* Dump cfg, turn "  NAME = value" lines into an environment, parse it. */
static void round_trip(const armcii_config_t *cfg)
{
    char *text = NULL;
    size_t len = 0;
    FILE *fp = open_memstream(&text, &len);
    if (!fp)
        abort();
    armcii_config_dump(cfg, fp, 0);
    fclose(fp);
    clear_env();
    for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
        char name[64], value[128];
        CHECK(sscanf(line, " %63s = %127s", name, value) == 2);
        add_env(name, value, strlen(value));
    }
    free(text);
    armcii_config_t again;
    char err[256];
    nwarn = 0;
    CHECK(armcii_config_parse(&again, fake_getenv, env, warn, err, sizeof err) == 0);
    CHECK(nwarn == 0);
    for (size_t i = 0; i < NROWS; i++)
        CHECK(field(&again, &rows[i]) == field(cfg, &rows[i]));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fz_t in = {data, size};
    size_t errlen = 256;
    if (size > 0 && data[size - 1] != '\n') {
        errlen = data[size - 1];   /* the tail line's last byte: 0..255 */
        in.n--;
    }
    clear_env();
    while (in.n > 0) {
        const uint8_t *nl = memchr(in.p, '\n', in.n);
        size_t ll = nl ? (size_t)(nl - in.p) : in.n;
        /* C strings: an embedded NUL ends the entry (as in a real environ). */
        size_t sl = strnlen((const char *)in.p, ll);
        if (sl > 0 && in.p[0] < 0x20)
            add_env(rows[(in.p[0] - 1) % NROWS].name, (const char *)in.p + 1, sl - 1);
        else
            add_env(NULL, (const char *)in.p, sl);
        in.p += ll + (nl != NULL);
        in.n -= ll + (nl != NULL);
    }
    int entries = nenv;
    int arm_entries = 0;
    for (int i = 0; i < nenv; i++)
        arm_entries += !strncmp(env[i], "ARMCI_", 6);

    armcii_config_t cfg;
    char *err = malloc(errlen + (errlen == 0));
    if (!err)
        abort();
    nwarn = 0;
    int rc = armcii_config_parse(&cfg, fake_getenv, env, warn, err, errlen);
    CHECK(rc == 0 || rc == -1);
    CHECK(nwarn <= arm_entries && nwarn <= entries);
    if (rc) {
        CHECK(nwarn == 0);   /* a bad value stops the parse before the warnings */
        if (errlen > 0) {
            size_t n = strnlen(err, errlen);
            CHECK(n < errlen);
            /* The message starts with the offending variable's name. */
            int named = 0;
            for (size_t i = 0; i < NROWS && !named; i++) {
                size_t l = strlen(rows[i].name);
                const char *v = fake_getenv(rows[i].name);
                if (errlen > l + 1 && !strncmp(err, rows[i].name, l) && err[l] == '=') {
                    CHECK(v && *v);
                    named = 1;
                }
            }
            CHECK(named || errlen <= 32);
        }
    } else {
        for (size_t i = 0; i < NROWS; i++) {
            const row_t *r = &rows[i];
            long v = field(&cfg, r);
            const char *e = fake_getenv(r->name);
            int set = e && *e;
            CHECK(((cfg.from_env >> i) & 1) == (unsigned long)set);
            if (!set)
                CHECK(v == r->dflt);
            switch (r->kind) {
            case K_BOOL:
                CHECK(v == 0 || v == 1);
                break;
            case K_INT:
            case K_LONG:
                CHECK(v >= 0);
                break;
            case K_ENUM:
                CHECK(v >= 0 && v < nchoices(r->choices));
                CHECK(strcmp(armcii_config_choice(r->name, (int)v), "?") != 0);
                CHECK(!strcmp(armcii_config_choice(r->name, nchoices(r->choices)), "?"));
                break;
            }
        }
        CHECK(cfg.from_env >> NROWS == 0);
        round_trip(&cfg);
    }
    free(err);
    clear_env();
    return 0;
}
