package dev.modelplane.operator.modelsource.fetch;

import java.time.Duration;

/**
 * What a finished download did.
 *
 * @param files how many files the model has
 * @param downloadedFiles files transferred (fully or resumed) in this run
 * @param skippedFiles files already complete on disk
 * @param downloadedBytes bytes transferred over the network in this run
 * @param resumedBytes bytes of partial files reused instead of transferred again
 * @param elapsed wall time of the run
 */
public record DownloadResult(int files, int downloadedFiles, int skippedFiles, long downloadedBytes,
    long resumedBytes, Duration elapsed) {
}
