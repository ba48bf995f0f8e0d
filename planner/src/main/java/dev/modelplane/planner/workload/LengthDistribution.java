package dev.modelplane.planner.workload;

import java.util.List;
import java.util.SplittableRandom;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * How many tokens a prompt or an output has. Every sample is at least one token.
 *
 * <p>The compact form {@link #parse} reads is the one {@link #toString} writes: {@code 512} (fixed), {@code U(1,1024)},
 * {@code N(480,240)}, {@code LN(480,240)}; an empirical list has no compact form.
 */
public sealed interface LengthDistribution {
  /** A length drawn from {@code random}, at least 1. */
  int sample(SplittableRandom random);

  /** The nominal mean, for reports. */
  double mean();

  /** Every request has {@code tokens}. */
  record Fixed(int tokens) implements LengthDistribution {
    public Fixed {
      positive("a fixed length", tokens);
    }

    @Override
    public int sample(SplittableRandom random) {
      return tokens;
    }

    @Override
    public double mean() {
      return tokens;
    }

    @Override
    public String toString() {
      return Integer.toString(tokens);
    }
  }

  /** Uniform over {@code min..max}, both included. */
  record Uniform(int min, int max) implements LengthDistribution {
    public Uniform {
      positive("a uniform distribution's min", min);
      if (max < min) {
        throw new IllegalArgumentException("a uniform distribution's max (" + max + ") is below its min (" + min + ")");
      }
    }

    @Override
    public int sample(SplittableRandom random) {
      return random.nextInt(min, max + 1);
    }

    @Override
    public double mean() {
      return (min + max) / 2.0;
    }

    @Override
    public String toString() {
      return "U(" + min + "," + max + ")";
    }
  }

  /** Normal, rounded, truncated to at least 1 (a draw below is drawn again, a few times, then taken as 1). */
  record Normal(double mean, double stddev) implements LengthDistribution {
    public Normal {
      if (!(mean >= 1) || !(stddev >= 0) || Double.isInfinite(mean) || Double.isInfinite(stddev)) {
        throw new IllegalArgumentException("a normal distribution needs mean >= 1 and stddev >= 0, got mean " + mean
            + " and stddev " + stddev);
      }
    }

    @Override
    public int sample(SplittableRandom random) {
      for (int attempt = 0; attempt < 16; attempt++) {
        long tokens = Math.round(random.nextGaussian(mean, stddev));
        if (tokens >= 1) {
          return (int) Math.min(tokens, Integer.MAX_VALUE);
        }
      }
      return 1;
    }

    @Override
    public String toString() {
      return "N(" + number(mean) + "," + number(stddev) + ")";
    }
  }

  /**
   * Log-normal with the given mean and standard deviation of the lengths themselves (not of their logarithm): long
   * tails, as chat and RAG prompts have.
   */
  record LogNormal(double mean, double stddev) implements LengthDistribution {
    public LogNormal {
      if (!(mean >= 1) || !(stddev >= 0) || Double.isInfinite(mean) || Double.isInfinite(stddev)) {
        throw new IllegalArgumentException("a lognormal distribution needs mean >= 1 and stddev >= 0, got mean "
            + mean + " and stddev " + stddev);
      }
    }

    @Override
    public int sample(SplittableRandom random) {
      double sigma2 = Math.log1p(stddev * stddev / (mean * mean));
      double mu = Math.log(mean) - sigma2 / 2;
      double tokens = Math.exp(random.nextGaussian(mu, Math.sqrt(sigma2)));
      return (int) Math.max(1, Math.min(Math.round(tokens), Integer.MAX_VALUE));
    }

    @Override
    public String toString() {
      return "LN(" + number(mean) + "," + number(stddev) + ")";
    }
  }

  /** One of the recorded {@code lengths}, each equally likely. */
  record Empirical(List<Integer> lengths) implements LengthDistribution {
    public Empirical {
      lengths = List.copyOf(lengths);
      if (lengths.isEmpty()) {
        throw new IllegalArgumentException("an empirical distribution needs at least one length");
      }
      lengths.forEach(n -> positive("an empirical length", n));
    }

    @Override
    public int sample(SplittableRandom random) {
      return lengths.get(random.nextInt(lengths.size()));
    }

    @Override
    public double mean() {
      return lengths.stream().mapToInt(Integer::intValue).average().orElseThrow();
    }

    @Override
    public String toString() {
      return "empirical(" + lengths.size() + " lengths, mean " + number(mean()) + ")";
    }
  }

  /** The compact forms, see the type's comment. */
  String FORMS = "a number, U(min,max), N(mean,stddev) or LN(mean,stddev)";

  /**
   * The compact form {@code text} (see the type's comment).
   *
   * @throws IllegalArgumentException naming the text and the forms allowed
   */
  static LengthDistribution parse(String text) {
    String s = text.strip();
    if (s.matches("\\d+")) {
      return new Fixed(parseCount(s, text));
    }
    Matcher m = Pattern.compile("(D|U|N|LN)\\(\\s*([0-9.]+)\\s*(?:,\\s*([0-9.]+)\\s*)?\\)").matcher(s);
    if (!m.matches() || m.group(1).equals("D") != (m.group(3) == null)) {
      throw new IllegalArgumentException("\"" + text + "\" is not a length distribution; expected " + FORMS);
    }
    double a = Double.parseDouble(m.group(2));
    return switch (m.group(1)) {
      case "D" -> new Fixed(parseCount(m.group(2), text));
      case "U" -> new Uniform(parseCount(m.group(2), text), parseCount(m.group(3), text));
      case "N" -> new Normal(a, Double.parseDouble(m.group(3)));
      default -> new LogNormal(a, Double.parseDouble(m.group(3)));
    };
  }

  private static int parseCount(String digits, String text) {
    try {
      return Integer.parseInt(digits);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("\"" + text + "\": " + digits + " is not a whole number of tokens");
    }
  }

  private static void positive(String what, int tokens) {
    if (tokens < 1) {
      throw new IllegalArgumentException(what + " must be at least 1 token, got " + tokens);
    }
  }

  /** {@code 480} rather than {@code 480.0}. */
  static String number(double value) {
    return value == Math.rint(value) && Math.abs(value) < 1e15 ? Long.toString((long) value)
        : Double.toString(Math.round(value * 100) / 100.0);
  }
}
