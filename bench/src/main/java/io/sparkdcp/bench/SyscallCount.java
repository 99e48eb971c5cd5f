package io.sparkdcp.bench;

/**
 * What strace saw one contender do per source file, after subtracting a copy of an empty tree
 * (process start-up, JVM class loading), walk and directories included.
 *
 * @param fileCallsPerFile  system calls on files, descriptors and names
 * @param pathLookupsPerFile of those, the calls that resolve a name (openat, statx, l*xattr by path …)
 */
public record SyscallCount(double fileCallsPerFile, double pathLookupsPerFile) {}
