// Preloaded into each Prism process (`node --import`): ends it when the process that started it
// ends, however that ends. The parent holds the write end of this process's stdin; the kernel
// closes it when the parent exits, even on SIGKILL, which no handler of the parent can catch.
process.stdin.on('end', () => process.exit(0));
process.stdin.on('error', () => process.exit(0));
process.stdin.resume();
