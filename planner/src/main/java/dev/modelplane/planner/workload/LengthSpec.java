package dev.modelplane.planner.workload;

import java.util.List;
import java.util.Set;

/**
 * The mapping form of a length in a workload file: {@code {fixed: 128}}, {@code {empirical: [100, 200]}}, or
 * {@code {distribution: fixed|uniform|normal|lognormal|empirical, value, min, max, mean, stddev, values}}.
 */
final class LengthSpec {
  private static final Set<String> FIELDS = Set.of("distribution", "fixed", "empirical", "value", "min", "max",
      "mean", "stddev", "values");

  private LengthSpec() {
  }

  static LengthDistribution read(FileNode node) {
    node.onlyFields(FIELDS);
    if (node.has("fixed")) {
      only(node, "fixed");
      return new LengthDistribution.Fixed(node.field("fixed").count(1));
    }
    if (node.has("empirical")) {
      only(node, "empirical");
      return empirical(node.field("empirical"));
    }
    if (!node.has("distribution")) {
      throw node.fail(node.path() + " needs distribution (fixed, uniform, normal, lognormal or empirical), "
          + "or fixed: N");
    }
    FileNode kind = node.field("distribution");
    return switch (kind.text()) {
      case "fixed" -> {
        only(node, "distribution", "value");
        yield new LengthDistribution.Fixed(required(node, "value").count(1));
      }
      case "uniform" -> {
        only(node, "distribution", "min", "max");
        int min = required(node, "min").count(1);
        FileNode max = required(node, "max");
        if (max.count(1) < min) {
          throw max.problem("must be at least min (" + min + "), got " + max.shown());
        }
        yield new LengthDistribution.Uniform(min, max.count(1));
      }
      case "normal", "lognormal" -> {
        only(node, "distribution", "mean", "stddev");
        double mean = required(node, "mean").number(1, Integer.MAX_VALUE);
        double stddev = required(node, "stddev").number(0, Integer.MAX_VALUE);
        yield kind.text().equals("normal") ? new LengthDistribution.Normal(mean, stddev)
            : new LengthDistribution.LogNormal(mean, stddev);
      }
      case "empirical" -> {
        only(node, "distribution", "values");
        yield empirical(required(node, "values"));
      }
      default -> throw kind.problem("must be fixed, uniform, normal, lognormal or empirical, got " + kind.shown());
    };
  }

  private static LengthDistribution empirical(FileNode list) {
    List<Integer> lengths = list.items().stream().map(item -> item.count(1)).toList();
    if (lengths.isEmpty()) {
      throw list.problem("needs at least one length");
    }
    return new LengthDistribution.Empirical(lengths);
  }

  private static FileNode required(FileNode node, String name) {
    FileNode field = node.field(name);
    if (field == null) {
      throw node.fail(node.path() + " (" + node.field("distribution").text() + ") needs " + name);
    }
    return field;
  }

  /** Fails on a field that the chosen form does not use. */
  private static void only(FileNode node, String... used) {
    Set<String> allowed = Set.of(used);
    for (String name : (Iterable<String>) node.node()::fieldNames) {
      if (!allowed.contains(name)) {
        throw node.field(name) == null ? node.fail(node.path() + "." + name + " is not used here")
            : node.field(name).fail(node.path() + "." + name + " does not go with " + used[0]
                + (used[0].equals("distribution") ? " " + node.field("distribution").text() : ""));
      }
    }
  }
}
