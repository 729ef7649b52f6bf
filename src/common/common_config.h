/*
 * The configuration table's functions (common_config.c; pure C, unit-tested):
 * parsing the ARMCI_* variables, dumping them, naming choices.  The struct
 * itself is in common.h, inside the library-wide state.
 */
#ifndef ARMCI_COMMON_CONFIG_H
#define ARMCI_COMMON_CONFIG_H

#include "common.h"

/* Parse every ARMCI_* variable through getenv_fn into cfg.  Returns 0, or -1
 * with a message in err (bad value).  Unknown ARMCI_* names found in envp are
 * reported through warn (one call each). */
int armcii_config_parse(armcii_config_t *cfg, const char *(*getenv_fn)(const char *),
                        char *const *envp, void (*warn)(const char *msg),
                        char *err, size_t errlen);
/* Write "NAME = value" lines for the whole table into fp; with sources,
 * each line also says "(environment)" or "(default)". */
void armcii_config_dump(const armcii_config_t *cfg, void *fp, int sources);
/* Name of an ENUM field's current choice (for logs). */
const char *armcii_config_choice(const char *var, int index);
/* Whether variable var was set by the environment when cfg was parsed. */
int armcii_config_from_env(const armcii_config_t *cfg, const char *var);

#endif /* ARMCI_COMMON_CONFIG_H */
