package dev.modelplane.router.flowcontrol;

import dev.modelplane.router.plugin.NamedPlugin;
import dev.modelplane.router.plugin.PluginHandle;
import dev.modelplane.router.plugin.PluginParameters;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The usage limit policy plugins GIE's flow control names in {@code flowControl.usageLimitPolicyPluginRef}:
 * {@code static-usage-limit-policy} (one ceiling for every band, {@code threshold}, default 1.0),
 * {@code priority-holdback-policy} (fixed ceilings stepping down from {@code maxCeiling} for the highest band to
 * {@code minCeiling} for the lowest, so lower bands stop while higher ones still have room) and
 * {@code soft-reflective-ceiling-policy} (ceilings that close lower bands progressively as saturation rises).
 */
public final class UsageLimitPolicies {
  public static final String STATIC = "static-usage-limit-policy";
  public static final String PRIORITY_HOLDBACK = "priority-holdback-policy";
  public static final String SOFT_REFLECTIVE = "soft-reflective-ceiling-policy";

  private UsageLimitPolicies() {
  }

  /** {@code static-usage-limit-policy}: {@code threshold} in (0.0, 1.0] for every band. */
  public static final class Static extends NamedPlugin implements UsageLimitPolicy {
    private final double threshold;

    public Static(String name, double threshold) {
      super(STATIC, name);
      if (!(threshold > 0 && threshold <= 1)) {
        throw new IllegalArgumentException("threshold must be in (0.0, 1.0], got " + threshold);
      }
      this.threshold = threshold;
    }

    /** Factory. */
    public static Static create(String name, PluginParameters parameters, PluginHandle handle) {
      return new Static(name, parameters.doubleValue("threshold", 1.0));
    }

    @Override
    public void ceilings(double saturation, int[] priorities, double[] ceilings) {
      Arrays.fill(ceilings, threshold);
    }
  }

  /**
   * {@code priority-holdback-policy}: linear ceilings from {@code maxCeiling} (highest band) to {@code minCeiling}
   * (lowest), spaced by rank ({@code domain: rank}, the default) or by priority value ({@code domain: value}); one
   * band, or bands of one value, get {@code maxCeiling}.
   */
  public static final class PriorityHoldback extends NamedPlugin implements UsageLimitPolicy {
    private final double min;
    private final double max;
    private final boolean byValue;

    public PriorityHoldback(String name, double minCeiling, double maxCeiling, boolean byValue) {
      super(PRIORITY_HOLDBACK, name);
      if (!(minCeiling >= 0 && minCeiling < 1)) {
        throw new IllegalArgumentException("minCeiling must be in [0.0, 1.0), got " + minCeiling);
      }
      if (!(maxCeiling > 0 && maxCeiling <= 1)) {
        throw new IllegalArgumentException("maxCeiling must be in (0.0, 1.0], got " + maxCeiling);
      }
      if (minCeiling > maxCeiling) {
        throw new IllegalArgumentException(
            "minCeiling (" + minCeiling + ") must not be greater than maxCeiling (" + maxCeiling + ")");
      }
      this.min = minCeiling;
      this.max = maxCeiling;
      this.byValue = byValue;
    }

    /** Factory: {@code minCeiling} is required, {@code shape} must be {@code linear}. */
    public static PriorityHoldback create(String name, PluginParameters parameters, PluginHandle handle) {
      String shape = parameters.text("shape", "linear");
      if (!"linear".equals(shape)) {
        throw new IllegalArgumentException("shape '" + shape + "' is not supported (supported: linear)");
      }
      String domain = parameters.text("domain", "rank");
      if (!"rank".equals(domain) && !"value".equals(domain)) {
        throw new IllegalArgumentException("domain must be 'rank' or 'value', got '" + domain + "'");
      }
      if (!parameters.has("minCeiling")) {
        throw new IllegalArgumentException("minCeiling is required (the ceiling of the lowest priority band)");
      }
      return new PriorityHoldback(name, parameters.doubleValue("minCeiling", 0),
          parameters.doubleValue("maxCeiling", 1.0), "value".equals(domain));
    }

    @Override
    public void ceilings(double saturation, int[] priorities, double[] ceilings) {
      int n = priorities.length;
      double lowest = n == 0 ? 0 : priorities[n - 1];
      double range = n == 0 ? 0 : priorities[0] - lowest;
      for (int i = 0; i < n; i++) {
        double position; // 1 for the highest band, 0 for the lowest
        if (n == 1 || (byValue && range == 0)) {
          position = 1;
        } else if (byValue) {
          position = (priorities[i] - lowest) / range;
        } else {
          position = 1 - (double) i / (n - 1);
        }
        ceilings[i] = min + position * (max - min);
      }
    }
  }

  /**
   * {@code soft-reflective-ceiling-policy} (no parameters): band {@code i} of {@code N} has the reflective ceiling
   * {@code 1 - i × saturation / (N - 1)}. Below it the band is open; at saturation 1.0 every band but the highest is
   * closed; in between it opens on one call in {@code round(saturation / (1 - saturation))}, one tick shared by every
   * band so that gating stays monotone across bands.
   */
  public static final class SoftReflective extends NamedPlugin implements UsageLimitPolicy {
    private final AtomicLong tick = new AtomicLong();

    public SoftReflective(String name) {
      super(SOFT_REFLECTIVE, name);
    }

    /** Factory; parameters are refused. */
    public static SoftReflective create(String name, PluginParameters parameters, PluginHandle handle) {
      if (!parameters.isEmpty()) {
        throw new IllegalArgumentException(SOFT_REFLECTIVE + " takes no parameters, got " + parameters.json());
      }
      return new SoftReflective(name);
    }

    @Override
    public void ceilings(double saturation, int[] priorities, double[] ceilings) {
      int n = priorities.length;
      if (n == 0) {
        return;
      }
      ceilings[0] = 1.0;
      boolean open;
      if (saturation >= 1.0) {
        open = false;
      } else {
        long period = Math.max(1, Math.round(saturation / (1 - saturation)));
        open = tick.getAndIncrement() % period == 0;
      }
      for (int i = 1; i < n; i++) {
        double reflective = 1 - i * saturation / (n - 1);
        ceilings[i] = saturation < reflective || open ? 1.0 : 0.0;
      }
    }
  }
}
