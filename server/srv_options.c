/*
 * srv_options.c: where options come from besides the command line. Every
 * option that takes a value may also be a `key = value` line of the file
 * --config FILE (or $EDDY_CONFIG) names, and an EDDY_KEY environment
 * variable (the option's name upper-cased, '-' as '_': --listen is
 * EDDY_LISTEN). The sources become one argument vector for getopt_long, in
 * the order file, environment, command line: a later occurrence overrides an
 * earlier one, so the command line wins over the environment, the
 * environment over the file, and the file over the defaults. Each argument
 * remembers where it came from, so an invalid value is reported with its
 * file and line or its variable.
 */
#include "server/server.h"

#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The vector made and each argument's origin ("" for the command line). */
static char **srv__opt_argv;
static char **srv__opt_origin;
static int srv__opt_argc, srv__opt_cap;

static void srv__opt_push(char *arg, char *origin)
{
    if (srv__opt_argc + 2 > srv__opt_cap) {
        srv__opt_cap = srv__opt_cap ? srv__opt_cap * 2 : 64;
        srv__opt_argv = cm_realloc(srv__opt_argv, sizeof *srv__opt_argv * (size_t)srv__opt_cap);
        srv__opt_origin = cm_realloc(srv__opt_origin, sizeof *srv__opt_origin * (size_t)srv__opt_cap);
    }
    srv__opt_origin[srv__opt_argc] = origin;
    srv__opt_argv[srv__opt_argc++] = arg;
    srv__opt_argv[srv__opt_argc] = NULL;
}

static char *srv__opt_printf(const char *fmt, const char *a, const char *b)
{
    size_t n = strlen(fmt) + strlen(a) + strlen(b) + 1;
    char *s = cm_malloc(n);
    snprintf(s, n, fmt, a, b);
    return s;
}

/* Options that only the command line may give (they are actions, or name the file itself). */
static bool srv__opt_settable(const struct option *o)
{
    return o->has_arg == required_argument && strcmp(o->name, "config") != 0;
}

static const struct option *srv__opt_find(const struct option *opts, const char *name)
{
    for (const struct option *o = opts; o->name != NULL; o++)
        if (strcmp(o->name, name) == 0)
            return o;
    return NULL;
}

static char *srv__opt_trim(char *s)
{
    while (isspace((unsigned char)*s))
        s++;
    char *e = s + strlen(s);
    while (e > s && isspace((unsigned char)e[-1]))
        *--e = 0;
    return s;
}

static bool srv__opt_read_file(const char *path, const struct option *opts)
{
    FILE *f = fopen(path, "r");
    if (f == NULL) {
        fprintf(stderr, "eddy: cannot read the config file %s: %s\n", path, strerror(errno));
        return false;
    }
    char line[8192];
    int lineno = 0;
    bool ok = true;
    while (fgets(line, sizeof line, f) != NULL) {
        lineno++;
        size_t len = strlen(line);
        if (len == sizeof line - 1 && line[len - 1] != '\n') {
            fprintf(stderr, "eddy: %s:%d: line longer than %zu bytes\n", path, lineno, sizeof line - 2);
            ok = false;
            break;
        }
        char *s = srv__opt_trim(line);
        if (*s == 0 || *s == '#')
            continue;
        char *eq = strchr(s, '=');
        if (eq == NULL) {
            fprintf(stderr, "eddy: %s:%d: expected \"key = value\", found \"%s\"\n", path, lineno, s);
            ok = false;
            break;
        }
        *eq = 0;
        char *key = srv__opt_trim(s), *val = srv__opt_trim(eq + 1);
        size_t vn = strlen(val);
        if (vn >= 2 && val[0] == '"' && val[vn - 1] == '"') {   /* "quoted" keeps inner spaces */
            val[vn - 1] = 0;
            val++;
        }
        const struct option *o = srv__opt_find(opts, key);
        if (o == NULL || !srv__opt_settable(o)) {
            fprintf(stderr, "eddy: %s:%d: unknown option \"%s\"%s\n", path, lineno, key,
                    o != NULL ? " (only on the command line)" : "");
            ok = false;
            break;
        }
        char num[16];
        snprintf(num, sizeof num, "%d", lineno);
        srv__opt_push(srv__opt_printf("--%s=%s", key, val), srv__opt_printf(" (from %s:%s)", path, num));
    }
    fclose(f);
    return ok;
}

/* The --config value of the command line, or NULL (getopt has not run yet). */
static const char *srv__opt_config_arg(int argc, char **argv)
{
    const char *path = NULL;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--") == 0)
            break;
        if (strcmp(argv[i], "--config") == 0 && i + 1 < argc)
            path = argv[++i];
        else if (strncmp(argv[i], "--config=", 9) == 0)
            path = argv[i] + 9;
    }
    return path;
}

bool srv_options_gather(int argc, char **argv, const struct option *opts, int *argc_out, char ***argv_out)
{
    srv__opt_push(argv[0], "");
    const char *path = srv__opt_config_arg(argc, argv);
    if (path == NULL)
        path = getenv("EDDY_CONFIG");
    if (path != NULL && path[0] != 0 && !srv__opt_read_file(path, opts))
        return false;
    for (const struct option *o = opts; o->name != NULL; o++) {
        if (!srv__opt_settable(o))
            continue;
        char var[128] = "EDDY_";
        size_t n = 5;
        for (const char *p = o->name; *p != 0 && n + 1 < sizeof var; p++)
            var[n++] = *p == '-' ? '_' : (char)toupper((unsigned char)*p);
        var[n] = 0;
        const char *val = getenv(var);
        if (val != NULL)
            srv__opt_push(srv__opt_printf("--%s=%s", o->name, val), srv__opt_printf(" (from $%s%s)", var, ""));
    }
    for (int i = 1; i < argc; i++)
        srv__opt_push(argv[i], "");
    *argc_out = srv__opt_argc;
    *argv_out = srv__opt_argv;
    return true;
}

const char *srv_options_origin(int index)
{
    return index > 0 && index < srv__opt_argc ? srv__opt_origin[index] : "";
}
