package dev.modelplane.router.datalayer;


import dev.modelplane.common.metrics.PrometheusSample;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A metric name with optional equality label matchers, written as in GIE's engine configs:
 * {@code nv_trt_llm_request_metrics{request_type=waiting}} (quotes around values are optional).
 *
 * @param name metric family name
 * @param labels labels a series must carry with exactly these values
 */
public record MetricSpec(String name, Map<String, String> labels) {
  private static final Pattern SPEC = Pattern.compile("\\s*([a-zA-Z_:][a-zA-Z0-9_:]*)\\s*(?:\\{(.*)\\})?\\s*");
  private static final Pattern MATCHER = Pattern.compile("\\s*([a-zA-Z_][a-zA-Z0-9_]*)\\s*=\\s*(\"([^\"]*)\"|[^\",}\\s]+)\\s*");

  public MetricSpec {
    labels = Map.copyOf(labels);
  }

  /** Parses a spec; an empty or null string means "not available" and yields {@code null}. */
  public static MetricSpec parse(String spec) {
    if (spec == null || spec.isBlank()) {
      return null;
    }
    Matcher m = SPEC.matcher(spec);
    if (!m.matches()) {
      throw new IllegalArgumentException("not a valid metric specification: " + spec);
    }
    Map<String, String> labels = new LinkedHashMap<>();
    String body = m.group(2);
    if (body != null && !body.isBlank()) {
      for (String part : body.split(",")) {
        if (part.isBlank()) {
          continue;
        }
        Matcher lm = MATCHER.matcher(part);
        if (!lm.matches()) {
          throw new IllegalArgumentException("not a valid label matcher in metric specification " + spec + ": " + part);
        }
        labels.put(lm.group(1), lm.group(3) != null ? lm.group(3) : lm.group(2));
      }
    }
    return new MetricSpec(m.group(1), labels);
  }

  /** Whether a series carries every required label value. */
  public boolean matches(Map<String, String> seriesLabels) {
    for (Map.Entry<String, String> e : labels.entrySet()) {
      if (!e.getValue().equals(seriesLabels.get(e.getKey()))) {
        return false;
      }
    }
    return true;
  }

  /**
   * The matching series with the highest explicit timestamp; with none, the first one listed (GIE's
   * {@code getLatestMetric}). {@code null} when the family is absent or nothing matches.
   */
  public PrometheusSample latest(Map<String, List<PrometheusSample>> families) {
    List<PrometheusSample> samples = families.get(name);
    if (samples == null) {
      return null;
    }
    PrometheusSample best = null;
    long recent = -1;
    for (PrometheusSample s : samples) {
      if (matches(s.labels()) && s.timestampMs() > recent) {
        recent = s.timestampMs();
        best = s;
      }
    }
    return best;
  }

  /** Like {@link #latest} but ranks series by value, because vLLM's LoRA info gauge holds a timestamp as value. */
  public PrometheusSample newestByValue(Map<String, List<PrometheusSample>> families) {
    List<PrometheusSample> samples = families.get(name);
    if (samples == null) {
      return null;
    }
    PrometheusSample best = null;
    double recent = -1;
    for (PrometheusSample s : samples) {
      if (matches(s.labels()) && s.value() > recent) {
        recent = s.value();
        best = s;
      }
    }
    return best;
  }

  @Override
  public String toString() {
    if (labels.isEmpty()) {
      return name;
    }
    StringBuilder sb = new StringBuilder(name).append('{');
    labels.forEach((k, v) -> sb.append(k).append('=').append(v).append(','));
    sb.setLength(sb.length() - 1);
    return sb.append('}').toString();
  }
}
