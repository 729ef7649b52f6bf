/* Configuration parsing: defaults, strict values, enum choices, unknown
 * ARMCI_* names warned, compatibility names accepted quietly. */
#include <stdio.h>
#include <string.h>
#include "../../src/common/common.h"
#include "unit_check.h"
#include "../../src/common/common_config.h"

static const char *const *fake_env;
static int warnings;
static char last_warning[256];

static const char *fake_getenv(const char *name)
{
    size_t n = strlen(name);
    for (const char *const *e = fake_env; e && *e; e++)
        if (!strncmp(*e, name, n) && (*e)[n] == '=')
            return *e + n + 1;
    return NULL;
}

static void warn(const char *msg)
{
    warnings++;
    snprintf(last_warning, sizeof last_warning, "%s", msg);
}

static int parse(const char *const *env, armcii_config_t *c, char *err)
{
    fake_env = env;
    warnings = 0;
    return armcii_config_parse(c, fake_getenv, (char *const *)env, warn, err, 256);
}

int main(void)
{
    armcii_config_t c;
    char err[256];
    const char *none[] = {NULL};
    FAILIF(parse(none, &c, err), "empty environment rejected: %s", err);
    FAILIF(c.node_local != 1 || c.verbose != 0 || c.virtual_node_size != 0 ||
           c.iov_method != ARMCII_IOV_AUTO || c.strided_method != ARMCII_STRIDED_DIRECT,
           "defaults wrong");
    const char *good[] = {"ARMCI_NODE_LOCAL=off", "ARMCI_VERBOSE=2", "ARMCI_IOV_METHOD=batched",
                          "ARMCI_VIRTUAL_NODE_SIZE=2", "ARMCI_SHM_LIMIT=1000000000000",
                          "ARMCI_DEBUG_ALLOC=Yes", "ARMCI_GHOST_ASYNC=auto", NULL};
    FAILIF(parse(good, &c, err), "good environment rejected: %s", err);
    FAILIF(c.node_local != 0 || c.verbose != 2 || c.iov_method != ARMCII_IOV_BATCHED ||
           c.virtual_node_size != 2 || c.shm_limit != 1000000000000L || !c.debug_alloc ||
           c.ghost_async != ARMCII_ASYNC_AUTO, "good values not applied");
    FAILIF(warnings, "warnings for known names: %s", last_warning);
    FAILIF(strcmp(armcii_config_choice("ARMCI_IOV_METHOD", ARMCII_IOV_BATCHED), "BATCHED"),
           "choice name");
    static const char *bad[][2] = {
        {"ARMCI_NODE_LOCAL=maybe", "ARMCI_NODE_LOCAL"}, {"ARMCI_VERBOSE=-1", "ARMCI_VERBOSE"},
        {"ARMCI_VERBOSE=3x", "ARMCI_VERBOSE"}, {"ARMCI_IOV_METHOD=FAST", "ARMCI_IOV_METHOD"},
        {"ARMCI_VIRTUAL_NODE_SIZE=99999999999", "ARMCI_VIRTUAL_NODE_SIZE"}};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        const char *env[] = {bad[i][0], NULL};
        FAILIF(parse(env, &c, err) == 0, "'%s' accepted", bad[i][0]);
        FAILIF(!strstr(err, bad[i][1]), "error for '%s' does not name it: %s", bad[i][0], err);
    }
    const char *unknown[] = {"ARMCI_NODELOCAL=on", "ARMCI_IOV_CHECKS=1", "OTHER_VAR=1", NULL};
    FAILIF(parse(unknown, &c, err), "unknown names must not be fatal");
    FAILIF(warnings != 1 || !strstr(last_warning, "ARMCI_NODELOCAL"),
           "expected one warning naming ARMCI_NODELOCAL, got %d: %s", warnings, last_warning);
    printf("%s test_config\n", failures ? "FAIL" : "PASS");
    return failures != 0;
}
