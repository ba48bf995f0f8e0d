package dev.modelplane.planner.search;

import dev.modelplane.planner.fleet.FleetResult;
import dev.modelplane.planner.workload.Workload;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Finds, for every shape of a {@link SearchSpace}, the fewest replicas that meet every objective, and ranks the
 * results. Latency is assumed to fall (and throughput to rise) as replicas are added, so each shape grows the count
 * 1, 2, 4, … until the objectives are met or the cap is reached, then bisects. Runs go one after another; the total
 * is capped, and shapes not reached within the cap are reported, not guessed.
 */
public final class PlanSearch {
  /** Share of requests that may fail (be shed, refused or time out) in a plan that meets its objectives. */
  public static final double MAX_FAILED_SHARE = 0.01;
  /** Runs a search may take when no cap is given. */
  public static final int DEFAULT_MAX_EVALUATIONS = 400;

  private final Evaluator evaluator;
  private final List<Slo> slos;
  private final Prices prices;
  private final int maxEvaluations;
  private final Consumer<String> progress;
  private SimulationTotals totals = SimulationTotals.NONE;

  /**
   * @param evaluator predicts how a configuration serves the workload
   * @param slos the objectives, at least one
   * @param prices GPU prices, {@link Prices#NONE} to rank by GPU count
   * @param maxEvaluations the most runs the search and its sweeps may take
   * @param progress told one line per run (e.g. for a terminal); never null
   */
  public PlanSearch(Evaluator evaluator, List<Slo> slos, Prices prices, int maxEvaluations,
      Consumer<String> progress) {
    if (slos.isEmpty()) {
      throw new IllegalArgumentException("--slo: give at least one objective, e.g. --slo ttft-p90=500ms");
    }
    if (maxEvaluations < 1) {
      throw new IllegalArgumentException("the evaluation cap must be >= 1, got " + maxEvaluations);
    }
    this.evaluator = evaluator;
    this.slos = List.copyOf(slos);
    this.prices = prices;
    this.maxEvaluations = maxEvaluations;
    this.progress = progress;
  }

  /** The runs so far and what they took. */
  public SimulationTotals totals() {
    return totals;
  }

  /** Searches {@code space} for {@code workload}. */
  public PlanOutcome search(SearchSpace space, Workload workload) {
    prices.requireAll(space.gpus());
    List<Rejection> rejected = new ArrayList<>(space.unfit());
    List<Plan> plans = new ArrayList<>();
    for (SearchSpace.Shape shape : space.shapes()) {
      ShapeAnswer answer = fewestReplicas(shape, space, workload);
      if (answer.plan() != null) {
        plans.add(answer.plan());
      } else {
        rejected.add(new Rejection(shape.gpu(), shape.tensorParallelSize(), shape.profile(), answer.reason()));
      }
    }
    plans.sort(ranking());
    return new PlanOutcome(plans, rejected, workload.describe(), slos, prices.priced(), totals);
  }

  /** The plan for {@code shape} with the fewest replicas meeting every objective, or why there is none. */
  private ShapeAnswer fewestReplicas(SearchSpace.Shape shape, SearchSpace space, Workload workload) {
    Map<Integer, FleetResult> runs = new HashMap<>();
    int failing = 0;
    int meeting = -1;
    for (int r = 1; meeting < 0; r = Math.min(r * 2, space.maxReplicas())) {
      FleetResult result = run(shape.candidate(r), workload, runs);
      if (result == null) {
        return ShapeAnswer.rejected(budgetReason());
      }
      if (shortfall(result) == null) {
        meeting = r;
      } else if (r == space.maxReplicas()) {
        return ShapeAnswer.rejected("even " + r + " replica" + (r == 1 ? "" : "s") + " (--max-replicas) "
            + shortfall(result));
      } else {
        failing = r;
      }
    }
    while (meeting - failing > 1) {
      int mid = (failing + meeting) >>> 1;
      FleetResult result = run(shape.candidate(mid), workload, runs);
      if (result == null) {
        break; // the best found so far still meets the objectives
      }
      if (shortfall(result) == null) {
        meeting = mid;
      } else {
        failing = mid;
      }
    }
    return ShapeAnswer.of(plan(shape.candidate(meeting), runs.get(meeting), space));
  }

  private String budgetReason() {
    return "not searched: the search reached its limit of " + maxEvaluations + " simulated runs";
  }

  /** Runs {@code candidate} once (remembered in {@code runs}); null when the run cap is reached. */
  private FleetResult run(Candidate candidate, Workload workload, Map<Integer, FleetResult> runs) {
    FleetResult known = runs.get(candidate.replicas());
    if (known != null) {
      return known;
    }
    FleetResult result = evaluate(candidate, workload);
    if (result != null) {
      runs.put(candidate.replicas(), result);
      String missing = shortfall(result);
      progress.accept(label(candidate) + ": " + summary(result) + (missing == null ? " - meets the SLOs" : " - "
          + missing));
    }
    return result;
  }

  private FleetResult evaluate(Candidate candidate, Workload workload) {
    if (totals.runs() >= maxEvaluations) {
      return null;
    }
    FleetResult result = evaluator.evaluate(candidate, workload);
    totals = totals.plus(result.simulatedSeconds(), result.wallSeconds());
    return result;
  }

  /** Why {@code result} misses the objectives, as a phrase; null when it meets them all. */
  String shortfall(FleetResult result) {
    long all = result.completed() + result.failed();
    if (result.completed() == 0) {
      return "completes no request";
    }
    double failedShare = (double) result.failed() / all;
    if (failedShare > MAX_FAILED_SHARE) {
      return String.format(Locale.ROOT, "fail %.1f%% of requests (at most %.0f%% may fail)", failedShare * 100,
          MAX_FAILED_SHARE * 100);
    }
    List<String> missed = new ArrayList<>();
    for (Slo slo : slos) {
      if (!slo.met(result)) {
        missed.add(slo.text() + " (measured " + slo.describe(slo.observed(result)) + ")");
      }
    }
    return missed.isEmpty() ? null : "miss " + String.join(", ", missed);
  }

  private Plan plan(Candidate candidate, FleetResult result, SearchSpace space) {
    Double price = prices.of(candidate.gpu());
    Double perHour = price == null ? null : price * candidate.gpus();
    Map<String, Double> margins = new LinkedHashMap<>();
    slos.forEach(slo -> margins.put(slo.text(), slo.margin(result)));
    return new Plan(candidate, result, candidate.gpus(), perHour,
        Plan.costPerMillionTokens(perHour, result.outputTokensPerSecond()), margins, true,
        Extrapolations.of(candidate, space.model()));
  }

  /** Best first: cheapest per hour when priced, else fewest GPUs; then lowest TTFT p90; then a stable order. */
  private Comparator<Plan> ranking() {
    Comparator<Plan> first = prices.priced()
        ? Comparator.comparingDouble((Plan p) -> p.costPerHour()).thenComparingInt(Plan::gpus)
        : Comparator.comparingInt(Plan::gpus);
    return first.thenComparingDouble(p -> ttftP90(p.result()))
        .thenComparing(p -> p.candidate().gpu())
        .thenComparingInt(p -> p.candidate().tensorParallelSize())
        .thenComparing(p -> p.candidate().profile());
  }

  private static double ttftP90(FleetResult r) {
    return Double.isNaN(r.ttft().p90()) ? Double.POSITIVE_INFINITY : r.ttft().p90();
  }

  /**
   * Runs each plan's configuration at {@code factors} times the workload's rate, for a plot of latency against load.
   * Stops early (with fewer points) when the run cap is reached.
   */
  public List<LoadSweep> sweep(List<Plan> plans, Workload workload, List<Double> factors) {
    List<LoadSweep> sweeps = new ArrayList<>();
    for (Plan plan : plans) {
      List<LoadSweep.Point> points = new ArrayList<>();
      for (double factor : factors.stream().sorted().toList()) {
        double rate = workload.rate() * factor;
        FleetResult result = evaluate(plan.candidate(), workload.atRate(rate));
        if (result == null) {
          break;
        }
        progress.accept(label(plan.candidate()) + String.format(Locale.ROOT, " at %.3g req/s: ", rate)
            + summary(result));
        points.add(new LoadSweep.Point(rate, result));
      }
      sweeps.add(new LoadSweep(plan.candidate(), points));
    }
    return sweeps;
  }

  /** {@code h100 TP=2 x3 precise}. */
  public static String label(Candidate c) {
    return c.gpu() + " TP=" + c.tensorParallelSize() + " x" + c.replicas() + " " + c.profile().label();
  }

  private static String summary(FleetResult r) {
    return String.format(Locale.ROOT, "TTFT p90 %.0fms, ITL p90 %.1fms, %.0f output tokens/s, %d failed",
        r.ttft().p90() * 1000, r.itl().p90() * 1000, r.outputTokensPerSecond(), r.failed());
  }

  /** A shape's plan, or why it has none. */
  private record ShapeAnswer(Plan plan, String reason) {
    static ShapeAnswer of(Plan plan) {
      return new ShapeAnswer(plan, null);
    }

    static ShapeAnswer rejected(String reason) {
      return new ShapeAnswer(null, reason);
    }
  }
}
