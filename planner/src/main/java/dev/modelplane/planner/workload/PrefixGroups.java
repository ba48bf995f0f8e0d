package dev.modelplane.planner.workload;

import java.util.SplittableRandom;

/**
 * Shared prompt prefixes (system prompts, few-shot examples, documents): {@code groups} distinct prefixes, a request
 * starting with one of them with probability {@code share}. A group's prefix length is drawn once per group from
 * {@code tokens}; a prompt shorter than its group's prefix keeps all but its last token as prefix, so a prompt is
 * never all prefix.
 *
 * @param groups distinct prefixes, at least 1
 * @param tokens the prefix length of each group
 * @param share the fraction of requests that start with a group's prefix, 0..1
 * @param zipfExponent 0 for groups chosen uniformly; above 0 for Zipf popularity, group k (from 1) weighted
 *     {@code 1/k^exponent}
 */
public record PrefixGroups(int groups, LengthDistribution tokens, double share, double zipfExponent) {
  public PrefixGroups {
    if (groups < 1) {
      throw new IllegalArgumentException("prefix groups must be at least 1, got " + groups);
    }
    if (!(share >= 0 && share <= 1)) {
      throw new IllegalArgumentException("the prefix share must be between 0 and 1, got " + share);
    }
    if (!(zipfExponent >= 0) || Double.isInfinite(zipfExponent)) {
      throw new IllegalArgumentException("the Zipf exponent must be >= 0, got " + zipfExponent);
    }
  }

  /** The groups' prefix lengths and popularity for one pass over a workload. */
  Sampler sampler(SplittableRandom random) {
    int[] lengths = new int[groups];
    double[] cumulative = new double[groups];
    double total = 0;
    for (int g = 0; g < groups; g++) {
      lengths[g] = tokens.sample(random);
      total += zipfExponent == 0 ? 1 : Math.pow(g + 1, -zipfExponent);
      cumulative[g] = total;
    }
    return new Sampler(lengths, cumulative, total);
  }

  /** Draws the group of a request; group 0 is the most popular under Zipf. */
  final class Sampler {
    private final int[] lengths;
    private final double[] cumulative;
    private final double total;

    private Sampler(int[] lengths, double[] cumulative, double total) {
      this.lengths = lengths;
      this.cumulative = cumulative;
      this.total = total;
    }

    /** The group of the next request, or -1 for none. Always draws the same number of values from {@code random}. */
    int group(SplittableRandom random) {
      double start = random.nextDouble();
      double pick = random.nextDouble() * total;
      if (start >= share) {
        return -1;
      }
      int i = java.util.Arrays.binarySearch(cumulative, pick);
      return Math.min(i >= 0 ? i + 1 : -i - 1, groups - 1);
    }

    /** Prefix tokens of {@code group} in a prompt of {@code promptTokens}. */
    int prefixTokens(int group, int promptTokens) {
      return group < 0 ? 0 : Math.min(lengths[group], promptTokens - 1);
    }
  }

  @Override
  public String toString() {
    return groups + " prefix group" + (groups == 1 ? "" : "s") + " of " + tokens + " tokens on "
        + LengthDistribution.number(share * 100) + "% of requests"
        + (zipfExponent == 0 || groups == 1 ? "" : " (Zipf " + LengthDistribution.number(zipfExponent) + ")");
  }
}
