package io.sparkdcp.plan;

import io.sparkdcp.walk.Entry;

import java.io.Serializable;

/**
 * A large file whose destination the prepare step created: its chunk tasks and its finish step
 * write only to that inode, so a file replaced meanwhile (another run, a user) fails instead of
 * receiving the rest. The inode number alone: st_dev is numbered by each client of a network
 * file system, so the tasks' nodes may disagree on it.
 */
public record LargeFile(Entry file, long destinationIno) implements Serializable {}
