package dev.modelplane.operator.ome.modelagent;

import dev.modelplane.common.time.Backoff;
import dev.modelplane.operator.modelsource.fetch.DownloadOptions;
import dev.modelplane.operator.modelsource.fetch.HubSettings;
import java.net.URI;
import java.time.Duration;
import java.util.Objects;

/**
 * How a node's model agent runs.
 *
 * @param nodeName the node the agent serves
 * @param namespace where the per-node status ConfigMaps live, and the Secrets of ClusterBaseModels
 * @param roots the directories models may be written to or read from
 * @param hfEndpoint the Hugging Face Hub (or mirror) for {@code hf://} sources
 * @param maxConcurrentDownloads how many models are worked on at once
 * @param progressInterval the shortest time between two progress reports of one download
 * @param maxRetries how many times a transient failure (connection, server error, unbound claim) is retried
 *     before the model is reported Failed
 * @param retryBackoff the wait before the first retry; doubles each time, at most 5 minutes
 * @param download how the downloader retries and detects stalls within one attempt
 * @param requestTimeout connect timeout and time to wait for response headers from a model source
 * @param resync how often every model is looked at again even without a change
 * @param simulateDownloads whether {@code hf://} and {@code s3://} models are written as a small placeholder
 *     directory instead of being downloaded (a local cluster whose model servers are simulators; no network, no
 *     credentials)
 * @param limits disk budget, listing size and models per node
 */
public record ModelAgentSettings(String nodeName, String namespace, ModelRoots roots, URI hfEndpoint,
    int maxConcurrentDownloads, Duration progressInterval, int maxRetries, Duration retryBackoff,
    DownloadOptions download, Duration requestTimeout, Duration resync, boolean simulateDownloads,
    AgentLimits limits) {
  /** The namespace used when none is given and the service account does not tell. */
  public static final String DEFAULT_NAMESPACE = "modelplane-system";
  private static final Duration MAX_BACKOFF = Duration.ofMinutes(5);

  public ModelAgentSettings {
    if (nodeName == null || nodeName.isBlank()) {
      throw new IllegalArgumentException("the node name is required (--node-name or $NODE_NAME)");
    }
    Objects.requireNonNull(namespace, "namespace");
    Objects.requireNonNull(roots, "roots");
    Objects.requireNonNull(hfEndpoint, "hfEndpoint");
    if (maxConcurrentDownloads < 1 || maxConcurrentDownloads > 64) {
      throw new IllegalArgumentException("--max-concurrent-downloads must be 1 to 64, got " + maxConcurrentDownloads);
    }
    if (progressInterval.isNegative() || progressInterval.isZero()) {
      throw new IllegalArgumentException("--progress-interval must be positive, got " + progressInterval);
    }
    if (maxRetries < 0 || maxRetries > 100) {
      throw new IllegalArgumentException("--max-retries must be 0 to 100, got " + maxRetries);
    }
    if (retryBackoff.isNegative() || retryBackoff.isZero()) {
      throw new IllegalArgumentException("--retry-backoff must be positive, got " + retryBackoff);
    }
    Objects.requireNonNull(download, "download");
    Objects.requireNonNull(requestTimeout, "requestTimeout");
    Objects.requireNonNull(resync, "resync");
    Objects.requireNonNull(limits, "limits");
    new HubSettings(hfEndpoint, "check/endpoint", "main", java.util.Optional.empty(), requestTimeout);
  }

  /**
   * Defaults for {@code nodeName}: status in {@code namespace}, models under {@code roots}, the public Hub, 2
   * downloads at once, progress every 10 s, 3 retries from 10 s, 30 s request timeout, resync every 10 minutes.
   */
  public static ModelAgentSettings of(String nodeName, String namespace, ModelRoots roots) {
    return new ModelAgentSettings(nodeName, namespace, roots, HubSettings.DEFAULT_ENDPOINT, 2,
        Duration.ofSeconds(10), 3, Duration.ofSeconds(10), DownloadOptions.DEFAULTS, Duration.ofSeconds(30),
        Duration.ofMinutes(10), false, AgentLimits.DEFAULTS);
  }

  /** The same settings with another Hub endpoint. */
  public ModelAgentSettings withHfEndpoint(URI endpoint) {
    return new ModelAgentSettings(nodeName, namespace, roots, endpoint, maxConcurrentDownloads, progressInterval,
        maxRetries, retryBackoff, download, requestTimeout, resync, simulateDownloads, limits);
  }

  /** The same settings with other concurrency and progress interval. */
  public ModelAgentSettings withConcurrency(int downloads, Duration interval) {
    return new ModelAgentSettings(nodeName, namespace, roots, hfEndpoint, downloads, interval, maxRetries,
        retryBackoff, download, requestTimeout, resync, simulateDownloads, limits);
  }

  /** The same settings with other retry rules (agent level and within the downloader). */
  public ModelAgentSettings withRetries(int retries, Duration backoff, DownloadOptions downloadOptions) {
    return new ModelAgentSettings(nodeName, namespace, roots, hfEndpoint, maxConcurrentDownloads, progressInterval,
        retries, backoff, downloadOptions, requestTimeout, resync, simulateDownloads, limits);
  }

  /** The same settings, with models written as placeholders instead of downloaded. */
  public ModelAgentSettings withSimulatedDownloads() {
    return new ModelAgentSettings(nodeName, namespace, roots, hfEndpoint, maxConcurrentDownloads, progressInterval,
        maxRetries, retryBackoff, download, requestTimeout, resync, true, limits);
  }

  /** The same settings with other limits. */
  public ModelAgentSettings withLimits(AgentLimits newLimits) {
    return new ModelAgentSettings(nodeName, namespace, roots, hfEndpoint, maxConcurrentDownloads, progressInterval,
        maxRetries, retryBackoff, download, requestTimeout, resync, simulateDownloads, newLimits);
  }

  /** The backoff before retry number {@code retry} (1 = first). */
  Duration backoff(int retry) {
    return new Backoff(retryBackoff, MAX_BACKOFF).delay(retry);
  }
}
