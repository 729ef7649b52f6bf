/*
 * Environment parsing: one table (common_config.def), strict values.
 * Pure C so that tests/unit and the fuzzer can drive it with a fake
 * environment.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "common.h"
#include "common_config.h"

enum cfg_kind { K_BOOL, K_INT, K_LONG, K_ENUM };

typedef struct {
    const char *name;
    enum cfg_kind kind;
    size_t offset;
    long dflt;
    const char *choices; /* ENUM only */
    const char *help;
} cfg_entry_t;

#define ARMCII_CFG_BOOL(N, f, d, h) {#N, K_BOOL, offsetof(armcii_config_t, f), d, NULL, h},
#define ARMCII_CFG_INT(N, f, d, h) {#N, K_INT, offsetof(armcii_config_t, f), d, NULL, h},
#define ARMCII_CFG_LONG(N, f, d, h) {#N, K_LONG, offsetof(armcii_config_t, f), d, NULL, h},
#define ARMCII_CFG_ENUM(N, f, c, d, h) {#N, K_ENUM, offsetof(armcii_config_t, f), d, c, h},
static const cfg_entry_t cfg_table[] = {
#include "common_config.def"
};
#undef ARMCII_CFG_BOOL
#undef ARMCII_CFG_INT
#undef ARMCII_CFG_LONG
#undef ARMCII_CFG_ENUM

#define CFG_N (sizeof(cfg_table) / sizeof(cfg_table[0]))
_Static_assert(CFG_N <= 8 * sizeof(unsigned long), "from_env has one bit per row");

/* Names other ARMCI implementations read: accepted silently, no effect here,
 * so scripts written for them do not draw unknown-variable warnings. */
static const char *const cfg_compat[] = {
    "ARMCI_CACHE_RANK_TRANSLATION", "ARMCI_IOV_CHECKS", "ARMCI_SHR_BUF_METHOD",
    "ARMCI_USE_WIN_ALLOCATE", "ARMCI_RMA_ATOMICITY", "ARMCI_RMA_NOCHECK",
    "ARMCI_USE_ALLOC_SHM", "ARMCI_USE_REQUEST_ATOMICS", "ARMCI_MSG_BARRIER_SYNCS",
    "ARMCI_IOV_DTYPE_CHUNK", "ARMCI_FLUSH_BARRIERS", "ARMCI_DISABLE_SHM_ACC",
    "ARMCI_USE_SAME_OP", "ARMCI_ACCUMULATE_GRANULARITY", "ARMCI_RMA_ORDERING",
    "ARMCI_FLUSH_REQUEST_ATOMICS", "ARMCI_MEMKIND_POOL_PATH", "ARMCI_PROFILE_OUTPUT",
    "ARMCI_TEST_MODE", NULL
};

static int parse_bool(const char *v, int *out)
{
    static const char *const yes[] = {"1", "on", "yes", "true", "y", "t", NULL};
    static const char *const no[] = {"0", "off", "no", "false", "n", "f", NULL};
    for (int i = 0; yes[i]; i++)
        if (!strcasecmp(v, yes[i])) { *out = 1; return 0; }
    for (int i = 0; no[i]; i++)
        if (!strcasecmp(v, no[i])) { *out = 0; return 0; }
    return -1;
}

static int parse_long(const char *v, long lo, long hi, long *out)
{
    char *end;
    errno = 0;
    long x = strtol(v, &end, 10);
    while (*end && isspace((unsigned char)*end))
        end++;
    if (errno || end == v || *end || x < lo || x > hi)
        return -1;
    *out = x;
    return 0;
}

static int parse_enum(const char *v, const char *choices, int *out)
{
    size_t vl = strlen(v);
    int idx = 0;
    for (const char *c = choices; *c; idx++) {
        const char *bar = strchr(c, '|');
        size_t cl = bar ? (size_t)(bar - c) : strlen(c);
        if (cl == vl && !strncasecmp(c, v, cl)) { *out = idx; return 0; }
        if (!bar) break;
        c = bar + 1;
    }
    return -1;
}

static int set_entry(armcii_config_t *cfg, const cfg_entry_t *e, const char *v,
                     char *err, size_t errlen)
{
    char *field = (char *)cfg + e->offset;
    int iv; long lv;
    switch (e->kind) {
    case K_BOOL:
        if (parse_bool(v, &iv)) break;
        *(int *)field = iv;
        return 0;
    case K_INT:
        if (parse_long(v, 0, INT_MAX, &lv)) break;
        *(int *)field = (int)lv;
        return 0;
    case K_LONG:
        if (parse_long(v, 0, LONG_MAX, &lv)) break;
        *(long *)field = lv;
        return 0;
    case K_ENUM:
        if (parse_enum(v, e->choices, &iv)) break;
        *(int *)field = iv;
        return 0;
    }
    static const char *const expect[] = {
        "one of 1/0/on/off/yes/no/true/false", "a non-negative integer",
        "a non-negative integer", "one of"};
    snprintf(err, errlen, "%s='%s' is invalid: expected %s%s%s", e->name, v,
             expect[e->kind], e->kind == K_ENUM ? " " : "",
             e->kind == K_ENUM ? e->choices : "");
    return -1;
}

static int known_name(const char *name, size_t len)
{
    for (size_t i = 0; i < CFG_N; i++)
        if (strlen(cfg_table[i].name) == len && !strncmp(cfg_table[i].name, name, len))
            return 1;
    for (int i = 0; cfg_compat[i]; i++)
        if (strlen(cfg_compat[i]) == len && !strncmp(cfg_compat[i], name, len))
            return 1;
    return 0;
}

int armcii_config_parse(armcii_config_t *cfg, const char *(*getenv_fn)(const char *),
                        char *const *envp, void (*warn)(const char *msg),
                        char *err, size_t errlen)
{
    for (size_t i = 0; i < CFG_N; i++) {
        const cfg_entry_t *e = &cfg_table[i];
        char *field = (char *)cfg + e->offset;
        if (e->kind == K_LONG) *(long *)field = e->dflt;
        else *(int *)field = (int)e->dflt;
    }
    cfg->from_env = 0;
    for (size_t i = 0; i < CFG_N; i++) {
        const char *v = getenv_fn(cfg_table[i].name);
        if (!v || !*v)
            continue;
        if (set_entry(cfg, &cfg_table[i], v, err, errlen))
            return -1;
        cfg->from_env |= 1UL << i;
    }
    for (; envp && *envp && warn; envp++) {
        const char *eq = strchr(*envp, '=');
        size_t len = eq ? (size_t)(eq - *envp) : strlen(*envp);
        if (strncmp(*envp, "ARMCI_", 6) || known_name(*envp, len))
            continue;
        char msg[256];
        snprintf(msg, sizeof msg, "unknown environment variable %.*s ignored "
                 "(see the README for the list)", (int)len, *envp);
        warn(msg);
    }
    return 0;
}

int armcii_config_from_env(const armcii_config_t *cfg, const char *var)
{
    for (size_t i = 0; i < CFG_N; i++)
        if (!strcmp(cfg_table[i].name, var))
            return (int)((cfg->from_env >> i) & 1);
    return 0;
}

const char *armcii_config_choice(const char *var, int index)
{
    static __thread char buf[64];
    for (size_t i = 0; i < CFG_N; i++) {
        if (strcmp(cfg_table[i].name, var) || cfg_table[i].kind != K_ENUM)
            continue;
        const char *c = cfg_table[i].choices;
        for (int k = 0; k < index && c; k++) {
            c = strchr(c, '|');
            if (c) c++;
        }
        if (!c) return "?";
        size_t n = strcspn(c, "|");
        snprintf(buf, sizeof buf, "%.*s", (int)n, c);
        return buf;
    }
    return "?";
}

void armcii_config_dump(const armcii_config_t *cfg, void *fpv, int sources)
{
    FILE *fp = fpv;
    for (size_t i = 0; i < CFG_N; i++) {
        const cfg_entry_t *e = &cfg_table[i];
        const char *field = (const char *)cfg + e->offset;
        char val[64];
        switch (e->kind) {
        case K_BOOL:
            snprintf(val, sizeof val, "%s", *(const int *)field ? "on" : "off");
            break;
        case K_INT:
            snprintf(val, sizeof val, "%d", *(const int *)field);
            break;
        case K_LONG:
            snprintf(val, sizeof val, "%ld", *(const long *)field);
            break;
        default:
            snprintf(val, sizeof val, "%s", armcii_config_choice(e->name, *(const int *)field));
            break;
        }
        if (sources)
            fprintf(fp, "  %-28s = %-10s (%s)\n", e->name, val,
                    (cfg->from_env >> i) & 1 ? "environment" : "default");
        else
            fprintf(fp, "  %-28s = %s\n", e->name, val);
    }
}
