package io.sparkdcp.plan;

import io.sparkdcp.walk.Entry;

import java.util.List;

/**
 * What one share of a listing plans to on its own: batches of its files, its large files (copied in
 * chunks), and its files with more than one link, which wait to meet their other names.
 */
public record PartitionPlan(List<FileBatch> batches, List<Entry> largeFiles, List<Entry> linked) {}
