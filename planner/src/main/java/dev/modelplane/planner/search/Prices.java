package dev.modelplane.planner.search;

import dev.modelplane.simulator.physics.Gpu;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What a GPU costs to rent, in US dollars per GPU-hour, by GPU name; empty when the plan is not priced.
 *
 * @param perGpuHour dollars per GPU-hour by lower-case GPU name
 */
public record Prices(Map<String, Double> perGpuHour) {
  /** No prices: plans are ranked by GPU count. */
  public static final Prices NONE = new Prices(Map.of());

  public Prices {
    perGpuHour = Map.copyOf(perGpuHour);
  }

  /**
   * Parses {@code gpu=USD_PER_HOUR} entries ({@code --price h100=2.5}).
   *
   * @throws IllegalArgumentException one line naming the entry at fault
   */
  public static Prices parse(List<String> entries) {
    Map<String, Double> prices = new LinkedHashMap<>();
    for (String entry : entries) {
      int eq = entry.indexOf('=');
      if (eq < 0) {
        throw new IllegalArgumentException("--price " + entry + ": expected GPU=USD_PER_HOUR (e.g. h100=2.5)");
      }
      String gpu = entry.substring(0, eq).strip().toLowerCase(Locale.ROOT);
      try {
        Gpu.byName(gpu);
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("--price " + entry + ": " + e.getMessage());
      }
      String value = entry.substring(eq + 1).strip();
      double price;
      try {
        price = Double.parseDouble(value);
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException("--price " + entry + ": \"" + value + "\" is not a number of dollars");
      }
      if (!(price > 0) || Double.isInfinite(price)) {
        throw new IllegalArgumentException("--price " + entry + ": the price must be positive");
      }
      if (prices.put(gpu, price) != null) {
        throw new IllegalArgumentException("--price " + entry + ": " + gpu + " is priced twice");
      }
    }
    return new Prices(prices);
  }

  /** True when any price was given. */
  public boolean priced() {
    return !perGpuHour.isEmpty();
  }

  /** Dollars per GPU-hour of {@code gpu}, or null when unpriced. */
  public Double of(String gpu) {
    return perGpuHour.get(gpu.toLowerCase(Locale.ROOT));
  }

  /**
   * Checks that every GPU of a priced plan has a price (a plan cannot rank priced and unpriced GPUs together).
   *
   * @throws IllegalArgumentException naming the first unpriced GPU
   */
  public void requireAll(List<String> gpus) {
    if (!priced()) {
      return;
    }
    for (String gpu : gpus) {
      if (of(gpu) == null) {
        throw new IllegalArgumentException("--price: no price for " + gpu.toLowerCase(Locale.ROOT)
            + "; price every --gpu (e.g. --price " + gpu.toLowerCase(Locale.ROOT) + "=2.5) or none");
      }
    }
  }
}
