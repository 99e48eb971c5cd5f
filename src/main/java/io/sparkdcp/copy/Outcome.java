package io.sparkdcp.copy;

/** What happened to one entry. */
public enum Outcome { COPIED, SKIPPED, FAILED }
