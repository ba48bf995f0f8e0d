package dev.modelplane.cli.plan;

import dev.modelplane.planner.fleet.RouterProfile;

/**
 * The router's EndpointPickerConfig for each profile a plan compares: the router's default; the same scorers with
 * the precise prefix index (KV-cache events from the servers) in place of the approximate one; and
 * predicted-latency scheduling as docs/router.md gives it.
 */
final class PickerProfiles {
  /** The servers' KV block size the precise index assumes (vLLM's default, the router's default). */
  static final int BLOCK_SIZE = 16;

  private PickerProfiles() {
  }

  /** The configuration's YAML: the one the plan simulated ({@link RouterProfile#pickerConfig}). */
  static String yaml(RouterProfile profile) {
    return profile.pickerConfig(BLOCK_SIZE);
  }
}
