package dev.modelplane.operator.ome.storage;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;

/**
 * What a node's model agent says about one model, as JSON under the model's key in the node's status ConfigMap (the
 * shape OME's agent writes, plus {@code reason}, {@code message} and {@code storageUri}).
 *
 * @param name the model's name
 * @param status {@code Updating}, {@code Ready}, {@code Failed} or {@code Deleted}
 * @param config the metadata read from the downloaded files ({@code ModelMetadata} as JSON), or null
 * @param progress download progress, or null
 * @param reason CamelCase reason of a failure, e.g. {@code UnsupportedStorage}, or null
 * @param message what went wrong or what was done, or null
 * @param storageUri the storage URI the files came from, so a changed URI is fetched again
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public record NodeReport(String name, String status, JsonNode config, Progress progress, String reason,
    String message, String storageUri) {
  public static final String UPDATING = "Updating";
  public static final String READY = "Ready";
  public static final String FAILED = "Failed";
  public static final String DELETED = "Deleted";

  private static final ObjectMapper JSON = JsonMapper.builder().build();

  /**
   * Download progress.
   *
   * @param phase what the agent is doing: {@code Listing}, {@code Downloading}, {@code Verifying}, {@code Done}
   * @param totalBytes bytes of every file
   * @param completedBytes bytes on disk and verified so far
   * @param totalFiles number of files
   * @param completedFiles files complete
   * @param speedBytesPerSec recent download speed
   * @param lastUpdated RFC 3339 time of this report
   */
  @JsonInclude(JsonInclude.Include.NON_NULL)
  @JsonIgnoreProperties(ignoreUnknown = true)
  public record Progress(String phase, Long totalBytes, Long completedBytes, Integer totalFiles,
      Integer completedFiles, Long speedBytesPerSec, String lastUpdated) {
  }

  /** The report as the JSON string stored in the ConfigMap. */
  public String toJson() {
    try {
      return JSON.writeValueAsString(this);
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new IllegalStateException("a NodeReport is always serializable", e);
    }
  }

  /** A report read back from a ConfigMap value; a value that is not a report reads as Failed with the reason. */
  public static NodeReport parse(String json) {
    try {
      return JSON.readValue(json, NodeReport.class);
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      return new NodeReport(null, FAILED, null, null, "UnreadableReport", "the agent's report is not valid JSON: "
          + e.getOriginalMessage(), null);
    }
  }

  public boolean ready() {
    return READY.equals(status);
  }

  public boolean failed() {
    return FAILED.equals(status);
  }
}
