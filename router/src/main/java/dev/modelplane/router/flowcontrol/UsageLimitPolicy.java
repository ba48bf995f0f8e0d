package dev.modelplane.router.flowcontrol;

/**
 * How much of the pool each priority band may use (GIE's usage limit policies): every dispatch cycle the flow
 * controller asks for one ceiling per band and stops the cycle at the first band, from the highest priority, whose
 * ceiling the pool's saturation has reached. Ceilings must not rise from one band to the next lower one, or a lower
 * band could be stopped by a higher one's gate anyway.
 */
public interface UsageLimitPolicy {
  /** No gating below saturation 1.0 for any band: GIE's default static policy at threshold 1.0. */
  UsageLimitPolicy NONE = (saturation, priorities, ceilings) -> java.util.Arrays.fill(ceilings, 1.0);

  /**
   * Fills {@code ceilings[i]} for the band of {@code priorities[i]}.
   *
   * @param saturation the pool's saturation now
   * @param priorities the known bands' priorities, highest first
   * @param ceilings where to write, as long as {@code priorities}
   */
  void ceilings(double saturation, int[] priorities, double[] ceilings);
}
