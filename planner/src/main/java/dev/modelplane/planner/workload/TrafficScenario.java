package dev.modelplane.planner.workload;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A genai-bench traffic scenario: the prompt and output lengths of its requests, in genai-bench's notation.
 *
 * <ul>
 *   <li>{@code D(in,out)}: every request has {@code in} prompt and {@code out} output tokens;
 *   <li>{@code N(mean_in,stddev_in)/(mean_out,stddev_out)}: normal lengths;
 *   <li>{@code U(min_in,max_in)/(min_out,max_out)}: uniform lengths, or {@code U(max_in,max_out)} from 1;
 *   <li>{@code P(prefix,suffix)/out}: every prompt is one shared {@code prefix} followed by {@code suffix} tokens of
 *       its own.
 * </ul>
 *
 * @param text the scenario as written
 * @param prompt prompt lengths
 * @param output output lengths
 * @param sharedPrefixTokens for {@code P(...)}: the prefix every prompt starts with, else 0
 */
public record TrafficScenario(String text, LengthDistribution prompt, LengthDistribution output,
    int sharedPrefixTokens) {

  private static final Pattern TWO = Pattern.compile("([DNUP])\\((\\d+),(\\d+)\\)(?:/\\((\\d+),(\\d+)\\))?");
  private static final Pattern PREFIX = Pattern.compile("P\\((\\d+),(\\d+)\\)/(\\d+)");
  /** What {@link #parse} accepts, for error messages. */
  public static final String FORMS = "D(in,out), N(mean_in,stddev_in)/(mean_out,stddev_out), "
      + "U(min_in,max_in)/(min_out,max_out), U(max_in,max_out) or P(prefix,suffix)/out";

  /**
   * The scenario {@code text}, written without spaces as genai-bench's {@code --traffic-scenario} takes it.
   *
   * @throws IllegalArgumentException naming the text and the forms allowed, or the number that is out of range
   */
  public static TrafficScenario parse(String text) {
    String s = text.strip();
    try {
      Matcher p = PREFIX.matcher(s);
      if (p.matches()) {
        int prefix = count(p.group(1));
        int suffix = count(p.group(2));
        if (suffix < 1) {
          throw new IllegalArgumentException("the suffix must be at least 1 token (a prompt is never all prefix)");
        }
        return new TrafficScenario(s, new LengthDistribution.Fixed(prefix + suffix),
            new LengthDistribution.Fixed(count(p.group(3))), prefix);
      }
      Matcher m = TWO.matcher(s);
      if (m.matches()) {
        boolean two = m.group(4) != null;
        return switch (m.group(1)) {
          case "D" -> two ? invalid(s) : new TrafficScenario(s, new LengthDistribution.Fixed(count(m.group(2))),
              new LengthDistribution.Fixed(count(m.group(3))), 0);
          case "N" -> two ? new TrafficScenario(s, new LengthDistribution.Normal(count(m.group(2)), count(m.group(3))),
              new LengthDistribution.Normal(count(m.group(4)), count(m.group(5))), 0) : invalid(s);
          case "U" -> two ? new TrafficScenario(s, new LengthDistribution.Uniform(count(m.group(2)), count(m.group(3))),
              new LengthDistribution.Uniform(count(m.group(4)), count(m.group(5))), 0)
              : new TrafficScenario(s, new LengthDistribution.Uniform(1, count(m.group(2))),
                  new LengthDistribution.Uniform(1, count(m.group(3))), 0);
          default -> invalid(s);
        };
      }
    } catch (IllegalArgumentException e) {
      if (e.getMessage().startsWith("traffic scenario")) {
        throw e;
      }
      throw new IllegalArgumentException("traffic scenario \"" + text + "\": " + e.getMessage(), e);
    }
    return invalid(text);
  }

  private static TrafficScenario invalid(String text) {
    throw new IllegalArgumentException("traffic scenario \"" + text + "\" is not one of " + FORMS);
  }

  private static int count(String digits) {
    try {
      return Integer.parseInt(digits);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(digits + " tokens is too many");
    }
  }

  @Override
  public String toString() {
    return text;
  }
}
