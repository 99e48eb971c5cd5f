package io.sparkdcp.plan;

import io.sparkdcp.walk.Entry;

import java.io.Serializable;

/**
 * A large file whose copy the prepare step created as a temporary in its DST directory: its chunk
 * tasks and its finish step write only to that inode, under that name, so a file replaced meanwhile
 * (another run, a user) fails instead of receiving the rest; the finish renames it into place. The
 * inode number alone: st_dev is numbered by each client of a network file system, so the tasks'
 * nodes may disagree on it.
 *
 * @param temporary the temporary's name in the file's DST directory
 */
public record LargeFile(Entry file, long destinationIno, byte[] temporary) implements Serializable {}
