#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
extern char **environ;
/* The floor: for each "input<TAB>answer" line, spawn the solution with the input as stdin, wait, memcmp the output. */
static char *slurp(const char *path, long *len) {
    FILE *f = fopen(path, "rb");
    if (!f) { *len = -1; return NULL; }
    fseek(f, 0, SEEK_END); *len = ftell(f); fseek(f, 0, SEEK_SET);
    char *buf = malloc(*len + 1);
    if (fread(buf, 1, *len, f) != (size_t)*len) *len = -1;
    fclose(f);
    return buf;
}
int main(int argc, char **argv) {
    if (argc != 4) return 2;
    FILE *list = fopen(argv[2], "r");
    char line[8192];
    int wrong = 0;
    while (fgets(line, sizeof line, list)) {
        line[strcspn(line, "\n")] = 0;
        char *tab = strchr(line, '\t');
        *tab = 0;
        posix_spawn_file_actions_t fa;
        posix_spawn_file_actions_init(&fa);
        posix_spawn_file_actions_addopen(&fa, 0, line, O_RDONLY, 0);
        posix_spawn_file_actions_addopen(&fa, 1, argv[3], O_WRONLY | O_CREAT | O_TRUNC, 0644);
        pid_t pid;
        char *args[] = {argv[1], NULL};
        if (posix_spawn(&pid, argv[1], &fa, NULL, args, environ) != 0) return 3;
        int status;
        waitpid(pid, &status, 0);
        posix_spawn_file_actions_destroy(&fa);
        long a, b;
        char *out = slurp(argv[3], &a), *ans = slurp(tab + 1, &b);
        if (a != b || memcmp(out, ans, a) != 0) wrong++;
        free(out);
        free(ans);
    }
    printf("%d\n", wrong);
    return 0;
}
