package dev.modelplane.operator.ome.modelagent;

import com.fasterxml.jackson.databind.JsonNode;
import dev.modelplane.operator.modelsource.fetch.DownloadProgress;
import dev.modelplane.operator.modelsource.fetch.FetchException;
import dev.modelplane.operator.ome.storage.NodeReport;
import java.time.Instant;
import java.time.temporal.ChronoUnit;

/** Builds the {@link NodeReport}s the agent publishes, in OME's shape. */
public final class AgentReports {
  private AgentReports() {
  }

  /** A report while the agent works: status Updating, with progress when there is some. */
  public static NodeReport updating(String name, String storageUri, DownloadProgress progress, Instant now,
      String message) {
    return new NodeReport(name, NodeReport.UPDATING, null, progress == null ? null : progress(progress, now), null,
        message, storageUri);
  }

  /** The model is on the node: status Ready, the metadata read from it (or null), the final progress if any. */
  public static NodeReport ready(String name, String storageUri, JsonNode config, DownloadProgress progress,
      Instant now, String message) {
    return new NodeReport(name, NodeReport.READY, config, progress == null ? null : progress(progress, now), null,
        message, storageUri);
  }

  /** The model cannot be placed: status Failed with the reason and message. */
  public static NodeReport failed(String name, String storageUri, String reason, String message,
      DownloadProgress progress, Instant now) {
    return new NodeReport(name, NodeReport.FAILED, null, progress == null ? null : progress(progress, now), reason,
        message, storageUri);
  }

  /** The reason of a Failed report for a download that failed so. */
  static String reason(FetchException.Kind kind) {
    return switch (kind) {
      case ACCESS_DENIED -> "AccessDenied";
      case NOT_FOUND -> "ModelNotFound";
      case SERVER_ERROR -> "SourceServerError";
      case CONNECTION -> "SourceUnreachable";
      case INTEGRITY -> "IntegrityCheckFailed";
      case INVALID -> "InvalidSource";
      case STORAGE -> "StorageError";
      case CANCELLED -> "Cancelled";
    };
  }

  /** The report's progress for a downloader's progress. */
  public static NodeReport.Progress progress(DownloadProgress p, Instant now) {
    return new NodeReport.Progress(phase(p.phase()), p.totalBytes(), p.completedBytes(), p.totalFiles(),
        p.completedFiles(), p.speedBytesPerSec(), now.truncatedTo(ChronoUnit.SECONDS).toString());
  }

  /** The progress phase name: {@code Verifying}, {@code Downloading}, {@code Done}, {@code Failed}, {@code Cancelled}. */
  public static String phase(DownloadProgress.Phase phase) {
    return switch (phase) {
      case VERIFYING -> "Verifying";
      case DOWNLOADING -> "Downloading";
      case COMPLETED -> "Done";
      case FAILED -> "Failed";
      case CANCELLED -> "Cancelled";
    };
  }
}
