package dev.modelplane.planner.search;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.modelplane.planner.fleet.LatencySummary;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/** A plan's answer for people (an aligned table with its notes) and for programs (JSON). */
public final class PlanReport {
  private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
  private static final List<String> COLUMNS = List.of("RANK", "GPU", "TP", "REPLICAS", "GPUS", "PROFILE",
      "TTFT-P50", "TTFT-P90", "TTFT-P99", "ITL-P50", "ITL-P90", "E2E-P90", "REQ/S", "OUT-TOK/S");
  private static final List<String> PRICE_COLUMNS = List.of("$/H", "$/M-TOK");

  private PlanReport() {
  }

  /** The table, best first, then the workload, objectives, extrapolation notes, rejections and run totals. */
  public static String table(PlanOutcome outcome) {
    StringBuilder out = new StringBuilder();
    if (outcome.plans().isEmpty()) {
      out.append("No configuration meets the SLOs.\n");
    } else {
      List<List<String>> rows = new ArrayList<>();
      List<String> header = new ArrayList<>(COLUMNS);
      if (outcome.priced()) {
        header.addAll(PRICE_COLUMNS);
      }
      header.add("SLO");
      rows.add(header);
      for (int i = 0; i < outcome.plans().size(); i++) {
        rows.add(row(i + 1, outcome.plans().get(i), outcome.priced()));
      }
      out.append(aligned(rows));
    }
    out.append('\n').append("Workload: ").append(outcome.workload()).append('\n');
    out.append("SLOs: ").append(String.join(", ", outcome.slos().stream().map(Slo::text).toList())).append('\n');
    Set<String> notes = new LinkedHashSet<>();
    outcome.plans().forEach(p -> notes.addAll(p.extrapolations()));
    if (!notes.isEmpty()) {
      out.append("\nExtrapolations (figures beyond what was measured):\n");
      notes.forEach(n -> out.append("  - ").append(n).append('\n'));
    }
    if (!outcome.rejected().isEmpty()) {
      out.append("\nCannot meet the SLOs:\n");
      outcome.rejected().forEach(r -> out.append("  - ").append(r.describe()).append('\n'));
    }
    SimulationTotals s = outcome.simulation();
    out.append(String.format(Locale.ROOT, "%nSimulated %d run%s: %.0fs of traffic in %.1fs (%.0fx real time).%n",
        s.runs(), s.runs() == 1 ? "" : "s", s.simulatedSeconds(), s.wallSeconds(), finite(s.speedUp())));
    return out.toString();
  }

  private static List<String> row(int rank, Plan p, boolean priced) {
    Candidate c = p.candidate();
    var r = p.result();
    List<String> row = new ArrayList<>(List.of(Integer.toString(rank), c.gpu(),
        Integer.toString(c.tensorParallelSize()), Integer.toString(c.replicas()), Integer.toString(p.gpus()),
        c.profile().label(), latency(r.ttft().p50()), latency(r.ttft().p90()), latency(r.ttft().p99()),
        latency(r.itl().p50()), latency(r.itl().p90()), latency(r.e2e().p90()),
        String.format(Locale.ROOT, "%.2f", r.requestsPerSecond()),
        String.format(Locale.ROOT, "%.0f", r.outputTokensPerSecond())));
    if (priced) {
      row.add(money(p.costPerHour()));
      row.add(money(p.costPerMillionTokens()));
    }
    row.add(p.meetsSlos() ? "met" : "missed");
    return row;
  }

  private static String aligned(List<List<String>> rows) {
    int[] widths = new int[rows.get(0).size()];
    rows.forEach(r -> {
      for (int i = 0; i < r.size(); i++) {
        widths[i] = Math.max(widths[i], r.get(i).length());
      }
    });
    StringBuilder out = new StringBuilder();
    for (List<String> r : rows) {
      StringBuilder line = new StringBuilder();
      for (int i = 0; i < r.size(); i++) {
        line.append(i == r.size() - 1 ? r.get(i) : String.format("%-" + (widths[i] + 3) + "s", r.get(i)));
      }
      out.append(line.toString().stripTrailing()).append('\n');
    }
    return out.toString();
  }

  /** Seconds as {@code 31.2ms}, {@code 312ms} or {@code 3.12s}; {@code -} when unmeasured. */
  static String latency(double seconds) {
    if (Double.isNaN(seconds)) {
      return "-";
    }
    if (seconds >= 1) {
      return String.format(Locale.ROOT, "%.2fs", seconds);
    }
    double ms = seconds * 1000;
    return String.format(Locale.ROOT, ms >= 100 ? "%.0fms" : "%.1fms", ms);
  }

  private static String money(Double dollars) {
    return dollars == null ? "-" : String.format(Locale.ROOT, "%.2f", dollars);
  }

  private static double finite(double v) {
    return Double.isFinite(v) ? v : 0;
  }

  /** The answer as a JSON document (latencies in milliseconds), best plan first. */
  public static String json(PlanOutcome outcome) {
    ObjectNode root = JSON.createObjectNode();
    ArrayNode plans = root.putArray("plans");
    outcome.plans().forEach(p -> plans.add(plan(p)));
    ArrayNode rejected = root.putArray("rejected");
    for (Rejection r : outcome.rejected()) {
      ObjectNode n = rejected.addObject().put("gpu", r.gpu()).put("tensorParallelSize", r.tensorParallelSize());
      if (r.profile() == null) {
        n.putNull("routerProfile");
      } else {
        n.put("routerProfile", r.profile().label());
      }
      n.put("reason", r.reason());
    }
    root.put("workload", outcome.workload());
    ArrayNode slos = root.putArray("slos");
    outcome.slos().forEach(s -> slos.add(s.text()));
    SimulationTotals s = outcome.simulation();
    ObjectNode sim = root.putObject("simulation").put("runs", s.runs()).put("simulatedSeconds", s.simulatedSeconds())
        .put("wallSeconds", s.wallSeconds());
    number(sim, "speedUp", s.speedUp());
    try {
      return JSON.writeValueAsString(root) + "\n";
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new IllegalStateException("cannot write the plan as JSON: " + e.getMessage(), e);
    }
  }

  private static ObjectNode plan(Plan p) {
    Candidate c = p.candidate();
    var r = p.result();
    ObjectNode n = JSON.createObjectNode().put("gpus", p.gpus()).put("gpu", c.gpu()).put("replicas", c.replicas())
        .put("tensorParallelSize", c.tensorParallelSize()).put("routerProfile", c.profile().label());
    n.set("ttft", millis(r.ttft()));
    n.set("itl", millis(r.itl()));
    n.set("e2e", millis(r.e2e()));
    number(n, "requestsPerSecond", r.requestsPerSecond());
    number(n, "outputTokensPerSecond", r.outputTokensPerSecond());
    number(n, "costPerHour", p.costPerHour());
    number(n, "costPerMillionTokens", p.costPerMillionTokens());
    n.put("meetsSlos", p.meetsSlos());
    ObjectNode margins = n.putObject("sloMargins");
    p.sloMargins().forEach((k, v) -> number(margins, k, v));
    ArrayNode notes = n.putArray("extrapolations");
    p.extrapolations().forEach(notes::add);
    return n;
  }

  private static ObjectNode millis(LatencySummary s) {
    ObjectNode n = JSON.createObjectNode();
    number(n, "p50", s.p50() * 1000);
    number(n, "p90", s.p90() * 1000);
    number(n, "p99", s.p99() * 1000);
    return n;
  }

  /** A number, or null when there is none (JSON has no NaN or infinity). */
  private static void number(ObjectNode n, String field, Double v) {
    if (v == null || !Double.isFinite(v)) {
      n.putNull(field);
    } else {
      n.put(field, v);
    }
  }
}
