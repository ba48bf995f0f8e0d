package dev.modelplane.operator.modelsource.fetch;

/**
 * How far a model download is, in the shape of OME's per-node {@code progress} status.
 *
 * @param phase what the downloader is doing
 * @param totalBytes the size of all files
 * @param completedBytes bytes on disk and verified or being written (files skipped as complete count in full)
 * @param totalFiles how many files the model has
 * @param completedFiles files in place and verified (or skipped as already complete)
 * @param speedBytesPerSec recent transfer rate over the network
 */
public record DownloadProgress(Phase phase, long totalBytes, long completedBytes, int totalFiles, int completedFiles,
    long speedBytesPerSec) {
  /** What the downloader is doing. */
  public enum Phase {
    /** Checking files already on disk (size, SHA-256) before downloading. */
    VERIFYING,
    /** Transferring bytes. */
    DOWNLOADING,
    /** Every file is in place and verified. */
    COMPLETED,
    /** The download stopped because of an error; partial files are kept for a resume unless corrupt. */
    FAILED,
    /** The caller stopped the download; partial files are kept for a resume. */
    CANCELLED
  }
}
