package dev.modelplane.router.scheduling;

import java.util.Map;

/**
 * Results of every profile that ran, and which of them is primary (the one whose targets receive the request).
 */
public record SchedulingResult(String primaryProfileName, Map<String, ProfileRunResult> profileResults) {
  /** The primary profile's result. */
  public ProfileRunResult primary() {
    return profileResults.get(primaryProfileName);
  }
}
