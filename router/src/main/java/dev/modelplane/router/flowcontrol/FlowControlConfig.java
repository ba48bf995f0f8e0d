package dev.modelplane.router.flowcontrol;

import java.time.Duration;
import java.util.List;

/**
 * Flow-control limits, with GIE's names and defaults: global {@code maxBytes}/{@code maxRequests} (0 = unlimited),
 * {@code defaultRequestTTL} (0 = wait until the client gives up), per-band limits (band {@code maxBytes} defaults to
 * 1 GB, {@code maxRequests} to unlimited) and policies.
 */
public record FlowControlConfig(long maxBytes, long maxRequests, Duration defaultRequestTtl, BandConfig defaultBand,
    List<BandConfig> bands) {

  /** GIE's default band byte limit. */
  public static final long DEFAULT_BAND_MAX_BYTES = 1_000_000_000L;
  public static final String FCFS = "fcfs-ordering-policy";
  public static final String GLOBAL_STRICT = "global-strict-fairness-policy";
  public static final String ROUND_ROBIN = "round-robin-fairness-policy";

  public static final FlowControlConfig DEFAULT = new FlowControlConfig(0, 0, Duration.ZERO,
      new BandConfig(0, DEFAULT_BAND_MAX_BYTES, 0, GLOBAL_STRICT, FCFS), List.of());

  public FlowControlConfig {
    bands = List.copyOf(bands);
    defaultRequestTtl = defaultRequestTtl == null ? Duration.ZERO : defaultRequestTtl;
  }

  /**
   * One priority band.
   *
   * @param priority the priority it holds (higher dispatches first)
   * @param maxBytes queued body bytes allowed, 0 = GIE's 1 GB default
   * @param maxRequests queued requests allowed, 0 = unlimited
   * @param fairnessPolicy {@code global-strict-fairness-policy} or {@code round-robin-fairness-policy}
   * @param orderingPolicy {@code fcfs-ordering-policy}
   */
  public record BandConfig(int priority, long maxBytes, long maxRequests, String fairnessPolicy,
      String orderingPolicy) {
    public BandConfig {
      fairnessPolicy = fairnessPolicy == null || fairnessPolicy.isEmpty() ? GLOBAL_STRICT : fairnessPolicy;
      orderingPolicy = orderingPolicy == null || orderingPolicy.isEmpty() ? FCFS : orderingPolicy;
      if (!fairnessPolicy.equals(GLOBAL_STRICT) && !fairnessPolicy.equals(ROUND_ROBIN)) {
        throw new IllegalArgumentException("unsupported fairness policy '" + fairnessPolicy + "' (supported: "
            + GLOBAL_STRICT + ", " + ROUND_ROBIN + ")");
      }
      if (!orderingPolicy.equals(FCFS)) {
        throw new IllegalArgumentException(
            "unsupported ordering policy '" + orderingPolicy + "' (supported: " + FCFS + ")");
      }
    }

    long effectiveMaxBytes() {
      return maxBytes > 0 ? maxBytes : DEFAULT_BAND_MAX_BYTES;
    }

    BandConfig withPriority(int p) {
      return new BandConfig(p, maxBytes, maxRequests, fairnessPolicy, orderingPolicy);
    }
  }

  /** The configuration of the band for {@code priority}: an explicit one, else the default band. */
  public BandConfig bandFor(int priority) {
    for (BandConfig b : bands) {
      if (b.priority() == priority) {
        return b;
      }
    }
    return defaultBand.withPriority(priority);
  }
}
