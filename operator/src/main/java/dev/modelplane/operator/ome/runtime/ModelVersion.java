package dev.modelplane.operator.ome.runtime;

import java.util.List;
import java.util.Optional;

/**
 * A model-format or framework version as OME compares them: {@code [v]major[.minor[.patch]]} with optional
 * {@code -pre}, {@code +build} and {@code .dev} parts; missing parts count as 0 and the number of parts given is the
 * version's precision.
 *
 * @param prefix {@code "v"} or empty
 * @param major major part
 * @param minor minor part (0 when not given)
 * @param patch patch part (0 when not given)
 * @param pre pre-release identifiers
 * @param build build identifiers
 * @param dev development identifiers ({@code 4.43.0.dev0} has {@code dev0})
 * @param precision how many of major, minor and patch were written
 */
public record ModelVersion(String prefix, long major, long minor, long patch, List<String> pre, List<String> build,
    List<String> dev, int precision) {

  /** The comparison a runtime's format entry asks for. */
  public enum Operator { EQUAL, GREATER_THAN, GREATER_THAN_OR_EQUAL }

  /** The version {@code text} writes, or empty when it is not one. */
  public static Optional<ModelVersion> parse(String text) {
    if (text == null || text.isEmpty()) {
      return Optional.empty();
    }
    String[] parts = text.split("\\.", 3);
    String majorText = parts[0];
    String prefix = "";
    if (majorText.startsWith("v")) {
      prefix = "v";
      majorText = majorText.substring(1);
    }
    String patchText = parts.length > 2 ? parts[2] : "0";
    List<String> build = List.of();
    List<String> pre = List.of();
    List<String> dev = List.of();
    int plus = patchText.indexOf('+');
    if (plus >= 0) {
      build = List.of(patchText.substring(plus + 1).split("\\.", -1));
      patchText = patchText.substring(0, plus);
    }
    int dash = patchText.indexOf('-');
    if (dash >= 0) {
      pre = List.of(patchText.substring(dash + 1).split("\\.", -1));
      patchText = patchText.substring(0, dash);
    }
    int dot = patchText.indexOf('.');
    if (dot >= 0) {
      dev = List.of(patchText.substring(dot + 1).split("\\.", -1));
      patchText = patchText.substring(0, dot);
    }
    if (pre.contains("") || build.contains("") || dev.contains("")) {
      return Optional.empty();
    }
    try {
      return Optional.of(new ModelVersion(prefix, number(majorText), parts.length > 1 ? number(parts[1]) : 0,
          number(patchText), pre, build, dev, parts.length));
    } catch (NumberFormatException e) {
      return Optional.empty();
    }
  }

  private static long number(String text) {
    if (text.isEmpty() || !text.chars().allMatch(Character::isDigit)) {
      throw new NumberFormatException(text);
    }
    return Long.parseLong(text);
  }

  /** The operator a format entry names; {@code Equal} when unset. Empty for a name OME does not know. */
  public static Optional<Operator> operator(String name) {
    if (name == null || name.isEmpty() || name.equals("Equal")) {
      return Optional.of(Operator.EQUAL);
    }
    return switch (name) {
      case "GreaterThan" -> Optional.of(Operator.GREATER_THAN);
      case "GreaterThanOrEqual" -> Optional.of(Operator.GREATER_THAN_OR_EQUAL);
      default -> Optional.empty();
    };
  }

  /**
   * Whether a model's version satisfies a runtime entry's version under its operator: {@code Equal} compares the
   * numbers ({@code 1} equals {@code 1.0.0}); the ordered operators need both versions written with the same
   * precision and prefix and then ask runtime &gt; (or &ge;) model; a pre-release, build or dev part on either side
   * allows only equality. Unparseable versions never match.
   */
  public static boolean matches(String runtimeVersion, String operatorName, String modelVersion) {
    Optional<ModelVersion> runtime = parse(runtimeVersion);
    Optional<ModelVersion> model = parse(modelVersion);
    Optional<Operator> operator = operator(operatorName);
    if (runtime.isEmpty() || model.isEmpty() || operator.isEmpty()) {
      return false;
    }
    ModelVersion r = runtime.get();
    ModelVersion m = model.get();
    if (r.unofficial() || m.unofficial() || operator.get() == Operator.EQUAL) {
      return r.compareTo(m) == 0;
    }
    if (r.precision != m.precision || !r.prefix.equals(m.prefix)) {
      return false;
    }
    int cmp = r.compareTo(m);
    return operator.get() == Operator.GREATER_THAN ? cmp > 0 : cmp >= 0;
  }

  /** Whether it has a pre-release, build or dev part. */
  public boolean unofficial() {
    return !pre.isEmpty() || !build.isEmpty() || !dev.isEmpty();
  }

  private int compareTo(ModelVersion o) {
    int c = Long.compare(major, o.major);
    if (c == 0) {
      c = Long.compare(minor, o.minor);
    }
    if (c == 0) {
      c = Long.compare(patch, o.patch);
    }
    if (c == 0) {
      c = compare(pre, o.pre);
    }
    if (c == 0) {
      c = compare(build, o.build);
    }
    return c == 0 ? compare(dev, o.dev) : c;
  }

  private static int compare(List<String> a, List<String> b) {
    for (int i = 0; i < Math.min(a.size(), b.size()); i++) {
      int c = a.get(i).compareTo(b.get(i));
      if (c != 0) {
        return Integer.signum(c);
      }
    }
    return Integer.compare(a.size(), b.size());
  }
}
